import pg from "pg";
import { describe, expect, it } from "vitest";
import { sqlLiteral } from "./sql-literal.js";

describe("sqlLiteral", () => {
  it("writes every string as pg's escapeLiteral does, without its leading space", () => {
    const texts = ["", "plain", "it's", "''", "back\\slash", "\\'", "E'x'", "한국어 'quoted' \\ and \\\\", "a\nb\tc", '"double"', "$1 $$ ;--"];
    // escapeLiteral puts a space before E'…'; the literal is the same.
    for (const text of texts) expect(sqlLiteral(text)).toBe(pg.escapeLiteral(text).trimStart());
  });
});
