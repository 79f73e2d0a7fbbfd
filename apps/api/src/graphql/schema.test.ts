import { readFile } from "node:fs/promises";
import { describe, expect, test } from "vitest";
import { buildWeftSchema } from "./schema.js";
import { schemaSdl } from "./schema-sdl.js";

describe("the committed schema file", () => {
  test("matches the schema built from the resolvers (run `pnpm --filter @weft/api run schema:emit` after a change)", async () => {
    const committed = await readFile(new URL("../../schema.graphql", import.meta.url), "utf8");
    expect(committed).toBe(schemaSdl(await buildWeftSchema()));
  });
});
