import { GraphQLError, parse, type OperationDefinitionNode } from "graphql";
import { expect, test } from "vitest";
import { PreparedOperations, type OperationPayload, type PreparedOperation } from "./prepared-operations.js";

function preparer() {
  const calls: (string | null)[] = [];
  const prepare = (payload: OperationPayload) => (key: string | null) => {
    calls.push(key);
    const document = parse(payload.query);
    return { document, operation: document.definitions[0] as OperationDefinitionNode, key } satisfies PreparedOperation;
  };
  return { calls, prepare };
}

const FOLLOW = "subscription ($id: ID!) { runEvents(runId: $id) { seq } }";

test("the same text, operation name and variables are prepared once; other variables are another operation", () => {
  const cache = new PreparedOperations();
  const { calls, prepare } = preparer();
  const a = { query: FOLLOW, variables: { id: "a" } };
  const first = cache.get(a, "key", prepare(a));
  expect(cache.get({ ...a }, "key", prepare(a))).toBe(first);
  const b = { query: FOLLOW, variables: { id: "b" } };
  const other = cache.get(b, "key", prepare(b)) as PreparedOperation;
  expect(other).not.toBe(first);
  expect(other.key).not.toBe((first as PreparedOperation).key);
  expect(calls).toHaveLength(2);
  // Another partition (a caller without a key) is prepared for itself.
  expect(cache.get(a, "anonymous", prepare(a))).not.toBe(first);
  expect(calls).toHaveLength(3);
});

test("refused operations are not kept, and the least recently used is dropped past the capacity", () => {
  const cache = new PreparedOperations(2);
  const refusals: number[] = [];
  const refused = { query: "{ nope }" };
  for (let i = 0; i < 2; i += 1) cache.get(refused, "key", () => (refusals.push(i), [new GraphQLError("no")]));
  expect(refusals).toEqual([0, 1]);
  expect(cache.size).toBe(0);

  const { calls, prepare } = preparer();
  const payloads = ["a", "b", "c"].map((id) => ({ query: FOLLOW, variables: { id } }));
  cache.get(payloads[0]!, "key", prepare(payloads[0]!));
  cache.get(payloads[1]!, "key", prepare(payloads[1]!));
  cache.get(payloads[0]!, "key", prepare(payloads[0]!)); // a is now the most recently used
  cache.get(payloads[2]!, "key", prepare(payloads[2]!)); // b goes
  expect(cache.size).toBe(2);
  cache.get(payloads[0]!, "key", prepare(payloads[0]!));
  cache.get(payloads[1]!, "key", prepare(payloads[1]!));
  expect(calls.length).toBe(4);
});

test("variables that cannot be written back as JSON are prepared every time and shared with nobody", () => {
  const cache = new PreparedOperations();
  const { calls, prepare } = preparer();
  let deep: unknown = 0;
  for (let i = 0; i < 200_000; i += 1) deep = [deep];
  const payload = { query: FOLLOW, variables: { id: "a", deep } };
  expect((cache.get(payload, "key", prepare(payload)) as PreparedOperation).key).toBeNull();
  cache.get(payload, "key", prepare(payload));
  expect(calls).toEqual([null, null]);
  expect(cache.size).toBe(0);
});
