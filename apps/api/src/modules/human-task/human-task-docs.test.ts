import { readFile } from "node:fs/promises";
import { parse, validate } from "graphql";
import { expect, test } from "vitest";
import { buildWeftSchema } from "../../graphql/schema.js";

const blocksOf = async (file: string) => {
  const text = await readFile(new URL(`../../../../../${file}`, import.meta.url), "utf8");
  return [...text.matchAll(/```graphql\n([\s\S]*?)```/g)].map(([, block]) => block!);
};

test("every GraphQL example of docs/human-steps.md, and the README's of human tasks, is valid against the schema", async () => {
  const schema = await buildWeftSchema();
  const readme = (await blocksOf("README.md")).filter((block) => block.includes("completeHumanTask"));
  expect(readme).toHaveLength(1);
  const blocks = [...(await blocksOf("docs/human-steps.md")), ...readme];
  expect(blocks.length).toBeGreaterThanOrEqual(3);
  for (const block of blocks) expect(validate(schema, parse(block)).map((error) => error.message), block).toEqual([]);
});
