import { readFile } from "node:fs/promises";
import { Kind, parse, validate, type DocumentNode } from "graphql";
import { expect, test } from "vitest";
import { buildWeftSchema } from "../../graphql/schema.js";

const EVALUATIONS = new URL("../../../../../docs/evaluations.md", import.meta.url);

/** A block holds several anonymous operations side by side: each is checked as a document of its own. */
const operationsOf = (block: string): DocumentNode[] => parse(block).definitions.map((definition) => ({ kind: Kind.DOCUMENT, definitions: [definition] }));

test("every GraphQL example of docs/evaluations.md, and every operation of its worked example's shell session, is valid against the schema", async () => {
  const schema = await buildWeftSchema();
  const text = await readFile(EVALUATIONS, "utf8");
  const blocks = [...text.matchAll(/```graphql\n([\s\S]*?)```/g)].map(([, block]) => block!);
  // The worked example sends its operations from the shell as single-quoted strings or through $UPDATE.
  const shell = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap(([, block]) => [...block!.matchAll(/'((?:mutation|query|subscription)\b[^']*)'/g)].map(([, operation]) => operation!));
  expect(blocks.length).toBeGreaterThanOrEqual(4);
  expect(shell.length).toBeGreaterThanOrEqual(8);
  for (const source of [...blocks, ...shell]) {
    for (const document of operationsOf(source)) expect(validate(schema, document).map((error) => error.message), source).toEqual([]);
  }
});
