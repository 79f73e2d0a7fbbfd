import { stringifyWorkflow } from "@weft/engine";
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
} from "graphql";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { buildWeftSchema } from "./schema.js";
import { describeEachDatabase, openTestDatabase, type TestDatabase } from "../testing/database.js";
import { seedWorkflow, startTestApp, type TestApp } from "../testing/app.js";
import { RunEvents, RunWorkflow } from "../testing/operations.js";
import { arrows } from "../testing/workflows.js";

/**
 * Every text and id a client can send, walked from the schema itself (so a new argument or input field is
 * covered without a line here), gets a NUL character and each kind of unpaired surrogate in turn. Each
 * request must be refused with VALIDATION_FAILED naming the argument's path, never INTERNAL_SERVER_ERROR.
 */

const HOSTILE = {
  nul: "a\u0000b",
  "lone high surrogate": "a\uD800b",
  "lone low surrogate": "\uDC00b",
} as const;

const TEXT_SCALARS = new Set(["String", "ID"]);
const JSON_SCALARS = new Set(["JSON", "JSONObject"]);

interface Case {
  kind: "query" | "mutation" | "subscription";
  field: string;
  /** Where the hostile text goes, from the argument name down; expected as the refusal's path. */
  path: string[];
  variant: keyof typeof HOSTILE;
  /** A JSON value's key rather than a string value. */
  inKey: boolean;
  document: string;
  variables: Record<string, unknown>;
}

/** A valid value for a type, with nothing optional. */
function filler(type: GraphQLInputType): unknown {
  const nullable = getNullableType(type);
  if (isListType(nullable)) return [filler(nullable.ofType)];
  if (isInputObjectType(nullable)) {
    const value: Record<string, unknown> = {};
    for (const field of Object.values(nullable.getFields())) if (isNonNullType(field.type)) value[field.name] = filler(field.type);
    return value;
  }
  if (isEnumType(nullable)) return nullable.getValues()[0]!.name;
  switch (nullable.name) {
    case "Int":
    case "Float":
      return 1;
    case "Boolean":
      return false;
    case "DateTimeISO":
      return "2026-01-01T00:00:00Z";
    case "JSON":
    case "JSONObject":
      return {};
    default:
      return "x";
  }
}

/** Every path inside a type where text can go: [path, scalar name]. */
function textPositions(type: GraphQLInputType, path: string[], seen: Set<string>): [string[], string][] {
  const nullable = getNullableType(type);
  if (isListType(nullable)) return textPositions(nullable.ofType, [...path, "0"], seen);
  if (isInputObjectType(nullable)) {
    if (seen.has(nullable.name)) return [];
    const inner = new Set(seen).add(nullable.name);
    return Object.values(nullable.getFields()).flatMap((field) => textPositions(field.type, [...path, field.name], inner));
  }
  if (isScalarType(nullable) && (TEXT_SCALARS.has(nullable.name) || JSON_SCALARS.has(nullable.name))) return [[path, nullable.name]];
  return [];
}

function setAt(target: Record<string, unknown>, path: string[], value: unknown): void {
  let node: Record<string, unknown> = target;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[path.at(-1)!] = value;
}

/** Fills the containers on the way to a position (an optional input object, a list). */
function ensurePath(args: readonly GraphQLArgument[], variables: Record<string, unknown>, path: string[]): void {
  let type: GraphQLInputType = args.find((arg) => arg.name === path[0])!.type;
  let node: Record<string, unknown> = variables;
  for (let index = 0; index < path.length - 1; index += 1) {
    const key = path[index]!;
    if (node[key] === undefined || node[key] === null) node[key] = filler(type);
    node = node[key] as Record<string, unknown>;
    const nullable = getNullableType(type);
    const next = path[index + 1]!;
    if (isListType(nullable)) type = nullable.ofType;
    else if (isInputObjectType(nullable)) type = nullable.getFields()[next]!.type;
  }
}

function selection(field: GraphQLField<unknown, unknown>): string {
  const named = getNamedType(field.type);
  if (!isObjectType(named)) return isScalarType(named) || isEnumType(named) ? "" : "{ __typename }";
  return named.getFields()["errors"] ? "{ errors { code message path } }" : "{ __typename }";
}

type RootKind = Case["kind"];

/** Every place a root field's arguments take text or JSON: the field, the path from the argument name down, and the scalar there. */
function* argumentPositions(schema: GraphQLSchema): Generator<{ kind: RootKind; field: GraphQLField<unknown, unknown>; path: string[]; scalar: string }> {
  for (const kind of ["query", "mutation", "subscription"] as const) {
    const root = kind === "query" ? schema.getQueryType() : kind === "mutation" ? schema.getMutationType() : schema.getSubscriptionType();
    for (const field of Object.values(root?.getFields() ?? {})) {
      for (const arg of field.args) {
        for (const [path, scalar] of textPositions(arg.type, [arg.name], new Set())) yield { kind, field, path, scalar };
      }
    }
  }
}

/** The operation sending `value` at `path`, every other required argument filled in. */
function operationWith(kind: RootKind, field: GraphQLField<unknown, unknown>, path: string[], value: unknown): Pick<Case, "document" | "variables"> {
  const variables: Record<string, unknown> = {};
  for (const other of field.args) if (isNonNullType(other.type)) variables[other.name] = filler(other.type);
  ensurePath(field.args, variables, path);
  setAt(variables, path, value);
  const declared = field.args.map((a) => `$${a.name}: ${a.type.toString()}`).join(", ");
  const passed = field.args.map((a) => `${a.name}: $${a.name}`).join(", ");
  return { document: `${kind} Hostile(${declared}) { ${field.name}(${passed}) ${selection(field)} }`, variables };
}

function casesOf(schema: GraphQLSchema): Case[] {
  const cases: Case[] = [];
  for (const { kind, field, path, scalar } of argumentPositions(schema)) {
    for (const variant of Object.keys(HOSTILE) as (keyof typeof HOSTILE)[]) {
      for (const inKey of JSON_SCALARS.has(scalar) ? [false, true] : [false]) {
        const hostile = HOSTILE[variant];
        const value = JSON_SCALARS.has(scalar) ? (inKey ? { [hostile]: 1 } : { text: hostile }) : hostile;
        cases.push({ kind, field: field.name, path: JSON_SCALARS.has(scalar) && !inKey ? [...path, "text"] : path, variant, inKey, ...operationWith(kind, field, path, value) });
      }
    }
  }
  return cases;
}

/** One level past WEFT_MAX_VALUE_DEPTH (64): `{ "v": [[…]] }`, 65 containers. */
const TOO_DEEP: unknown = (() => {
  let value: unknown = 1;
  for (let level = 0; level < 64; level += 1) value = [value];
  return { v: value };
})();

/** A value one level too deep at every JSON position of every root field's arguments. */
function deepCasesOf(schema: GraphQLSchema): Case[] {
  const cases: Case[] = [];
  for (const { kind, field, path, scalar } of argumentPositions(schema)) {
    if (JSON_SCALARS.has(scalar)) cases.push({ kind, field: field.name, path, variant: "nul", inKey: false, ...operationWith(kind, field, path, TOO_DEEP) });
  }
  return cases;
}

let db: TestDatabase;
let api: TestApp;
let cases: Case[];
let deepCases: Case[];
beforeAll(async () => {
  const schema = await buildWeftSchema();
  cases = casesOf(schema);
  deepCases = deepCasesOf(schema);
  db = await openTestDatabase("embedded");
  api = await startTestApp(db, { env: { WEFT_RATE_LIMIT_REQUESTS_PER_MINUTE: "0", WEFT_RATE_LIMIT_RUNS_PER_MINUTE: "0" } });
  await seedWorkflow(db, arrows(["in->g1->out"]));
}, 60_000);
afterAll(async () => {
  await api?.close();
  await db?.close();
});

const SUBSCRIPTION_ANSWER_MS = 10_000;

type Reported = { code?: unknown; path?: unknown; message?: unknown };

async function send(item: Case): Promise<Reported[]> {
  if (item.kind !== "subscription") {
    const result = await api.admin.execute(item.document, item.variables);
    const payload = (result.data as Record<string, { errors?: Reported[] } | null> | null)?.[item.field];
    return [
      ...result.errors.map((error) => ({ code: error.extensions?.["code"], path: error.extensions?.["path"], message: error.message })),
      ...(payload?.errors ?? []),
    ];
  }
  const ws = api.admin.ws();
  try {
    const stream = api.admin.subscribe(ws, item.document, item.variables);
    // A subscription that accepted the hostile text would stream forever: report it instead of hanging.
    const timer = new Promise<"open">((resolve) => setTimeout(() => resolve("open"), SUBSCRIPTION_ANSWER_MS).unref());
    if ((await Promise.race([stream.ended, timer])) === "open") return [{ code: "STILL_STREAMING" }];
    const failures = Array.isArray(stream.failure) ? (stream.failure as typeof stream.errors) : [];
    return [...stream.errors, ...failures].map((error) => ({ code: error.extensions?.["code"], path: error.extensions?.["path"], message: error.message }));
  } finally {
    await ws.dispose();
  }
}

test("every text and id argument refuses a NUL character and unpaired surrogates with VALIDATION_FAILED and its path", async () => {
  const outcomes: string[] = [];
  for (const item of cases) {
    const reported = await send(item);
    const ok = reported.length === 1 && reported[0]!.code === "VALIDATION_FAILED" && JSON.stringify(reported[0]!.path) === JSON.stringify(item.path);
    if (!ok) outcomes.push(`${item.kind} ${item.field} ${item.path.join(".")}${item.inKey ? " (key)" : ""} [${item.variant}]: ${JSON.stringify(reported)}`);
  }
  expect(outcomes).toEqual([]);
  // Every root field taking text is covered; the count is recorded in the closing note of the change.
  console.info(`hostile text inputs sent: ${cases.length}`);
  expect(cases.length).toBeGreaterThan(200);
}, 300_000);

test("every JSON argument refuses a value nested deeper than WEFT_MAX_VALUE_DEPTH with VALUE_TOO_DEEP and its path", async () => {
  const outcomes: string[] = [];
  for (const item of deepCases) {
    const reported = await send(item);
    const ok = reported.length === 1 && reported[0]!.code === "VALUE_TOO_DEEP" && JSON.stringify(reported[0]!.path) === JSON.stringify(item.path);
    if (!ok) outcomes.push(`${item.kind} ${item.field} ${item.path.join(".")}: ${JSON.stringify(reported)}`);
  }
  expect(outcomes).toEqual([]);
  console.info(`too deep JSON arguments sent: ${deepCases.length}`);
  expect(deepCases.length).toBeGreaterThanOrEqual(5);
}, 120_000);

describeEachDatabase("hostile text next to valid requests", (suite) => {
  let app: TestApp | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  test("one bad id in an alias fails alone: the valid lookup batched with it answers", async () => {
    app = await startTestApp(suite.db());
    const id = await seedWorkflow(suite.db(), arrows(["in->g1->out"], { name: "kept" }));
    const result = await app.admin.execute(
      `query ($id: ID!, $bad: ID!) { good: workflow(id: $id) { id name } bad: workflow(id: $bad) { id } run: run(id: $bad) { id } }`,
      { id, bad: "a\u0000b" },
    );
    expect(result.status).toBe(200);
    expect(result.data).toEqual({ good: { id, name: "kept" }, bad: null, run: null });
    expect(result.errors.map((error) => [error.path, error.extensions?.["code"], error.extensions?.["path"]])).toEqual([
      [["bad"], "VALIDATION_FAILED", ["id"]],
      [["run"], "VALIDATION_FAILED", ["id"]],
    ]);
  });

  test("a subscription with a bad run id fails alone: a valid subscription on the same socket streams to the end", async () => {
    app = await startTestApp(suite.db());
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"], { params: { delayMs: 100 } }));
    const { runWorkflow } = await app.admin.request(RunWorkflow, { workflowId });
    const ws = app.admin.ws();
    const valid = app.admin.subscribe(ws, RunEvents, { runId: runWorkflow.run!.id, afterSeq: 0 });
    const bad = app.admin.subscribe(ws, RunEvents, { runId: "\uD800", afterSeq: 0 });
    await Promise.all([valid.ended, bad.ended]);
    await ws.dispose();
    expect(JSON.stringify(bad.failure ?? bad.errors)).toContain("VALIDATION_FAILED");
    expect(valid.failure).toBeNull();
    expect(valid.items.at(-1)?.runEvents.type).toBe("RUN_COMPLETED");
  });

  test("the literal of the report: createWorkflow with a NUL in its name answers VALIDATION_FAILED and stores nothing", async () => {
    app = await startTestApp(suite.db());
    const result = await app.admin.execute(`mutation { createWorkflow(input: { name: "a\\u0000b" }) { workflow { id } errors { code path } } }`);
    expect(result.data).toEqual({ createWorkflow: { workflow: null, errors: [{ code: "VALIDATION_FAILED", path: ["input", "name"] }] } });
    expect(await suite.db().prisma.workflow.count()).toBe(0);
  });
});

test("text escaped in an imported document's JSON is refused at its path, and a base64 file with NUL bytes is refused as binary data", async () => {
  const document = stringifyWorkflow(arrows(["in->out"], { nodes: { in: { content: "a\u0000b" } } }));
  expect(document).toContain("\\u0000");
  const imported = await api.admin.execute(`mutation ($d: JSON!) { importWorkflow(document: $d) { workflow { id } errors { code path } } }`, { d: document });
  expect(imported.data).toEqual({ importWorkflow: { workflow: null, errors: [{ code: "VALIDATION_FAILED", path: ["document", "nodes", "0", "content"] }] } });

  const kb = await api.admin.execute(`mutation { createKnowledgeBase(input: { name: "binary" }) { knowledgeBase { id } errors { code } } }`);
  const knowledgeBaseId = (kb.data as { createKnowledgeBase: { knowledgeBase: { id: string } } }).createKnowledgeBase.knowledgeBase.id;
  const added = await api.admin.execute(
    `mutation ($kb: ID!, $c: String!) { addDocuments(knowledgeBaseId: $kb, documents: [{ title: "nul.txt", content: $c, encoding: BASE64 }], waitForIndexing: true) { documents { status error } errors { code message path } } }`,
    { kb: knowledgeBaseId, c: Buffer.from("a\u0000b").toString("base64") },
  );
  expect(added.data).toEqual({
    addDocuments: {
      documents: [],
      // NUL is no character of a text file: the bytes are binary, and no binary format is supported.
      errors: [{ code: "DOCUMENT_TYPE_UNSUPPORTED", message: expect.stringContaining("binary data"), path: ["documents", "0"] }],
    },
  });
});
