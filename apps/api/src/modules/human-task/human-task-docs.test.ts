import { readFile } from "node:fs/promises";
import { parse, validate } from "graphql";
import { expect, test } from "vitest";
import { buildWeftSchema } from "../../graphql/schema.js";

test("every GraphQL example of docs/human-steps.md is valid against the schema", async () => {
  const schema = await buildWeftSchema();
  const text = await readFile(new URL("../../../../../docs/human-steps.md", import.meta.url), "utf8");
  const blocks = [...text.matchAll(/```graphql\n([\s\S]*?)```/g)].map(([, block]) => block!);
  expect(blocks.length).toBeGreaterThanOrEqual(2);
  for (const block of blocks) expect(validate(schema, parse(block)).map((error) => error.message), block).toEqual([]);
});
