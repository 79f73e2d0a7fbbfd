import { readFile } from "node:fs/promises";
import { parse, validate } from "graphql";
import { expect, test } from "vitest";
import { buildWeftSchema } from "../../graphql/schema.js";

test("every GraphQL example of docs/mcp.md is valid against the schema", async () => {
  const text = await readFile(new URL("../../../../../docs/mcp.md", import.meta.url), "utf8");
  const blocks = [...text.matchAll(/```graphql\n([\s\S]*?)```/g)].map(([, block]) => block!);
  expect(blocks.length).toBeGreaterThanOrEqual(1);
  const schema = await buildWeftSchema();
  for (const block of blocks) expect(validate(schema, parse(block)).map((error) => error.message), block).toEqual([]);
});
