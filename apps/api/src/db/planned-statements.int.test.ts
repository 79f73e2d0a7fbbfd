import { PGlite } from "@electric-sql/pglite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Prisma, PrismaClient } from "../generated/prisma/client.js";
import { describeEachDatabase } from "../testing/database.js";
import { openDatabase } from "./db.js";
import { PGliteAdapterFactory } from "./pglite-adapter.js";
import { planned } from "./planned.js";
import { MAX_PLANNED_STATEMENTS, PLANNED_MARK, PlannedNames, plannedStatementsOf } from "./planned-statements.js";
import { pgliteRawSql } from "./raw-sql.js";

interface Prepared {
  name: string;
  statement: string;
  generic_plans: number;
  custom_plans: number;
}

describe("statements the embedded database keeps planned", () => {
  let client: PGlite;
  let prisma: PrismaClient;
  const prepared = async () => (await client.query<Prepared>("SELECT name, statement, generic_plans, custom_plans FROM pg_prepared_statements ORDER BY name")).rows;

  beforeEach(async () => {
    client = await PGlite.create();
    await client.exec(`CREATE TABLE note (id int PRIMARY KEY, body text, score float8, done boolean)`);
    prisma = new PrismaClient({ adapter: new PGliteAdapterFactory(client) });
  });

  afterEach(async () => {
    await prisma.$disconnect();
    await client.close();
  });

  it("prepares a marked statement once per session and answers as the statement does unprepared", async () => {
    const hostile = `it's a \\ back'slash'); DROP TABLE note; --`;
    const insert = (id: number, body: string | null) =>
      Prisma.sql`INSERT INTO note (id, body, score, done) VALUES (${id}, ${body}, ${id / 4}, ${id % 2 === 0}) RETURNING id, body, score, done`;
    const first = await prisma.$queryRaw(planned(insert(1, hostile)));
    const second = await prisma.$queryRaw(planned(insert(2, null)));
    const plain = await prisma.$queryRaw(insert(3, hostile));
    expect(first).toEqual([{ id: 1, body: hostile, score: 0.25, done: false }]);
    expect(second).toEqual([{ id: 2, body: null, score: 0.5, done: true }]);
    expect(plain).toEqual([{ id: 3, body: hostile, score: 0.75, done: false }]);
    const [statement, ...others] = await prepared();
    expect(others).toEqual([]);
    expect(statement?.statement).toContain("INSERT INTO note");
    expect(Number(statement?.generic_plans) + Number(statement?.custom_plans)).toBe(2);
    expect(await client.query("SELECT count(*)::int AS n FROM note")).toMatchObject({ rows: [{ n: 3 }] });
  });

  it("keeps a statement prepared in a transaction that rolled back", async () => {
    const select = (id: number) => planned(Prisma.sql`SELECT body FROM note WHERE id = ${id}`);
    await expect(
      prisma.$transaction(async (tx) => {
        await tx.$queryRaw(select(1));
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    await client.query("INSERT INTO note (id, body) VALUES (1, 'kept')");
    expect(await prisma.$queryRaw(select(1))).toEqual([{ body: "kept" }]);
    expect(await prisma.$transaction(async (tx) => tx.$queryRaw(select(1)))).toEqual([{ body: "kept" }]);
    expect((await prepared()).length).toBe(1);
  });

  it("shares one session's prepared statements between the adapters on its PGlite", async () => {
    const other = new PrismaClient({ adapter: new PGliteAdapterFactory(client) });
    try {
      const select = planned(Prisma.sql`SELECT ${"same"}::text AS word`);
      expect(await prisma.$queryRaw(select)).toEqual([{ word: "same" }]);
      expect(await other.$queryRaw(select)).toEqual([{ word: "same" }]);
      expect((await prepared()).length).toBe(1);
      expect(plannedStatementsOf(client).size).toBe(1);
    } finally {
      await other.$disconnect();
    }
  });

  it("prepares a statement once when many calls, Prisma's and the raw handle's, meet it for the first time at once", async () => {
    const select = (k: number) => planned(Prisma.sql`SELECT ${k}::int AS n`);
    const raw = pgliteRawSql(client);
    const answers = await Promise.all([
      ...Array.from({ length: 6 }, (_, k) => prisma.$queryRaw<{ n: number }[]>(select(k))),
      ...Array.from({ length: 6 }, (_, k) => raw.query<{ n: number }>(`${PLANNED_MARK} SELECT $1::int AS n`, [k])).map((result) => result.then(({ rows }) => rows)),
    ]);
    expect(answers.map((rows) => rows[0]?.n)).toEqual([0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5]);
    // Prisma's text and the raw one are the same: one statement.
    expect((await prepared()).length).toBe(1);
  });

  it("runs a marked statement with a date argument as it came, unprepared", async () => {
    const when = new Date("2026-11-26T05:30:00.123Z");
    expect(await prisma.$queryRaw<{ at: Date }[]>(planned(Prisma.sql`SELECT ${when}::timestamp(3) AS at`))).toEqual([{ at: when }]);
    expect(await prepared()).toEqual([]);
  });

  it(`prepares at most ${MAX_PLANNED_STATEMENTS} statements and runs the ones after as they come`, async () => {
    for (let k = 0; k <= MAX_PLANNED_STATEMENTS; k += 1) {
      const [row] = await prisma.$queryRaw<{ n: number }[]>(planned(Prisma.sql`SELECT ${k}::int + ${Prisma.raw(String(k))} AS n`));
      expect(row?.n).toBe(2 * k);
    }
    expect((await prepared()).length).toBe(MAX_PLANNED_STATEMENTS);
  });

  it("prepares a marked raw statement once per session, in and out of transactions, and answers as unprepared", async () => {
    const raw = pgliteRawSql(client);
    const sql = "INSERT INTO note (id, body, done) VALUES ($1, $2, $3) RETURNING id, body, done";
    expect((await raw.query(`${PLANNED_MARK} ${sql}`, [1, "it's", true])).rows).toEqual([{ id: 1, body: "it's", done: true }]);
    expect(await raw.transaction((tx) => tx.query(`${PLANNED_MARK} ${sql}`, [2, null, false]))).toEqual({
      rows: [{ id: 2, body: null, done: false }],
      affectedRows: 1,
    });
    expect((await raw.query(sql, [3, "plain", false])).rows).toEqual([{ id: 3, body: "plain", done: false }]);
    expect((await prepared()).map((row) => row.name)).toEqual(["weft_planned_1"]);
  });

  it("runs a marked raw statement with a parameter that is not a plain scalar unprepared", async () => {
    const raw = pgliteRawSql(client);
    const rows = (await raw.query<{ at: Date }>(`${PLANNED_MARK} SELECT $1::timestamptz AS at`, [new Date("2026-11-26T06:00:00Z")])).rows;
    expect(rows[0]?.at.toISOString()).toBe("2026-11-26T06:00:00.000Z");
    expect(await prepared()).toEqual([]);
  });
});

describe("the names of planned statements", () => {
  it(`names the first ${MAX_PLANNED_STATEMENTS} marked texts, each always the same, and none after them or unmarked`, () => {
    const names = new PlannedNames();
    const text = (k: number) => `${PLANNED_MARK} SELECT ${k}`;
    expect(names.nameOf("SELECT 1")).toBeNull();
    for (let k = 1; k <= MAX_PLANNED_STATEMENTS; k += 1) expect(names.nameOf(text(k))).toBe(`weft_planned_${k}`);
    expect(names.nameOf(text(MAX_PLANNED_STATEMENTS + 1))).toBeNull();
    expect(names.nameOf(text(7))).toBe("weft_planned_7");
    expect(names.size).toBe(MAX_PLANNED_STATEMENTS);
  });
});

describeEachDatabase("planned statements on either database", (suite) => {
  it("prepares Prisma's marked statements and the raw handle's under names from one list, and answers as unprepared", async () => {
    // One connection on PostgreSQL, so the statements and pg_prepared_statements meet on the same session.
    const db = suite.mode === "server" ? await openDatabase({ mode: "server", url: suite.db().location, migrate: false, maxConnections: 1 }) : suite.db();
    try {
      const viaPrisma = await db.prisma.$queryRaw<{ word: string }[]>(planned(Prisma.sql`SELECT ${"prisma"}::text AS word`));
      const viaRaw = await db.raw.query<{ n: number }>(`${PLANNED_MARK} SELECT $1::int + 1 AS n`, [41]);
      const again = await db.prisma.$transaction((tx) => tx.$queryRaw<{ word: string }[]>(planned(Prisma.sql`SELECT ${"again"}::text AS word`)));
      const unmarked = await db.raw.query<{ n: number }>("SELECT $1::int AS n", [3]);
      expect([viaPrisma, viaRaw.rows, again, unmarked.rows]).toEqual([[{ word: "prisma" }], [{ n: 42 }], [{ word: "again" }], [{ n: 3 }]]);
      const { rows } = await db.raw.query<{ name: string; statement: string }>("SELECT name, statement FROM pg_prepared_statements ORDER BY name");
      expect(rows.map((row) => [row.name, row.statement.includes("::int + 1") ? "raw" : "prisma"])).toEqual([
        ["weft_planned_1", "prisma"],
        ["weft_planned_2", "raw"],
      ]);
    } finally {
      if (db !== suite.db()) await db.close();
    }
  });
});
