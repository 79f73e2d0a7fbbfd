import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * PGlite 0.3.16 is patched (patches/@electric-sql__pglite@0.3.16.patch): a query given `parsers` (the
 * Prisma adapter gives them to every query) used to copy PGlite's 300-odd type parsers into a new object
 * per query; it now looks them up through one object per parser set, in front of PGlite's own. These
 * tests pin what the copy did, so the patch changes the cost and nothing else.
 */
describe("PGlite's result parsers for a query given its own", () => {
  let client: PGlite;
  const TEXT = 25;
  const INT4 = 23;

  beforeAll(async () => {
    client = await PGlite.create();
  });

  afterAll(async () => {
    await client.close();
  });

  it("uses the query's parser for its types and PGlite's for the others", async () => {
    const loud = { [TEXT]: (value: string) => value.toUpperCase() };
    const { rows } = await client.query<{ word: string; n: number }>("SELECT 'quiet'::text AS word, 7::int4 AS n", [], { parsers: loud });
    expect(rows).toEqual([{ word: "QUIET", n: 7 }]);
  });

  it("keeps each query's parsers to that query", async () => {
    const loud = { [TEXT]: (value: string) => value.toUpperCase() };
    const marked = { [TEXT]: (value: string) => `<${value}>` };
    const read = async (parsers?: Record<number, (value: string) => unknown>) =>
      (await client.query<{ word: string }>("SELECT 'a'::text AS word", [], parsers ? { parsers } : {})).rows[0]?.word;
    expect([await read(loud), await read(marked), await read(), await read(loud)]).toEqual(["A", "<a>", "a", "A"]);
  });

  it("sees a parser PGlite gains after a query that gave the same parsers (as after refreshArrayTypes)", async () => {
    const loud = { [TEXT]: (value: string) => value.toUpperCase() };
    const sql = "SELECT 'x'::text AS word, 2::int4 AS n";
    expect((await client.query(sql, [], { parsers: loud })).rows).toEqual([{ word: "X", n: 2 }]);
    const parsers = client.parsers as Record<number, (value: string) => unknown>;
    const before = parsers[INT4];
    parsers[INT4] = (value: string) => Number(value) * 10;
    try {
      expect((await client.query(sql, [], { parsers: loud })).rows).toEqual([{ word: "X", n: 20 }]);
    } finally {
      if (before) parsers[INT4] = before;
    }
  });
});
