import { Prisma } from "../generated/prisma/client.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../testing/database.js";
import { PLANNED_MARK } from "./planned-statements.js";

describe("the embedded database on its own thread", () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await openTestDatabase("embedded");
    await db.raw.exec(`CREATE TABLE thread_note (id int PRIMARY KEY, body text NOT NULL)`);
  });

  afterAll(async () => {
    await db.close();
  });

  it("brings a raw statement's PostgreSQL error back with its code and detail", async () => {
    await db.raw.query(`INSERT INTO thread_note VALUES (1, 'first')`);
    const error = (await db.raw.query(`INSERT INTO thread_note VALUES (1, 'again')`).catch((caught: unknown) => caught)) as Error & Record<string, unknown>;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(/duplicate key/);
    expect(error["code"]).toBe("23505");
    expect(error["detail"]).toMatch(/\(id\)=\(1\)/);
    expect(error.stack).toContain("the embedded database's thread");
  });

  it("brings a Prisma statement's error back as Prisma's known error with its code", async () => {
    await db.prisma.workflow.create({ data: { id: "b4d6b3f0-5b1c-4b47-8f0e-6f1f3c1a0001", name: "once", prompts: {}, outputFormat: "text" } });
    const error = await db.prisma.workflow
      .create({ data: { id: "b4d6b3f0-5b1c-4b47-8f0e-6f1f3c1a0001", name: "twice", prompts: {}, outputFormat: "text" } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Prisma.PrismaClientKnownRequestError);
    expect((error as Prisma.PrismaClientKnownRequestError).code).toBe("P2002");
  });

  it("commits a raw transaction's statements together and undoes them all when its work throws", async () => {
    await db.raw.transaction(async (tx) => {
      await tx.query(`INSERT INTO thread_note VALUES (10, 'a')`);
      await tx.query(`INSERT INTO thread_note VALUES (11, 'b')`);
    });
    await expect(
      db.raw.transaction(async (tx) => {
        await tx.query(`INSERT INTO thread_note VALUES (12, 'c')`);
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    const { rows } = await db.raw.query<{ id: number }>(`SELECT id FROM thread_note WHERE id >= 10 ORDER BY id`);
    expect(rows.map((row) => row.id)).toEqual([10, 11]);
  });

  it("answers many callers at once, in and out of transactions, each with its own rows", async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, async (_, k) => {
        if (k % 4 === 0) return db.raw.transaction(async (tx) => (await tx.query<{ n: number }>(`SELECT $1::int AS n`, [k])).rows[0]?.n);
        if (k % 4 === 1) return (await db.prisma.$queryRaw<{ n: number }[]>`SELECT ${k}::int AS n`)[0]?.n;
        if (k % 4 === 2) return db.prisma.$transaction(async (tx) => (await tx.$queryRaw<{ n: number }[]>`SELECT ${k}::int AS n`)[0]?.n);
        return (await db.raw.query<{ n: number }>(`${PLANNED_MARK} SELECT $1::int AS n`, [k])).rows[0]?.n;
      }),
    );
    expect(answers).toEqual(Array.from({ length: 40 }, (_, k) => k));
  });

  it("fails a call whose argument cannot cross threads, and goes on answering the next", async () => {
    await expect(db.raw.query(`SELECT $1::text AS t`, [() => "a function"])).rejects.toThrow(/could not be cloned/);
    expect((await db.raw.query<{ t: string }>(`SELECT $1::text AS t`, ["fine"])).rows).toEqual([{ t: "fine" }]);
  });

  it("carries dates, JSON, big integers and bytes both ways unchanged", async () => {
    const at = new Date("2026-11-26T08:30:00.250Z");
    const { rows } = await db.raw.query<{ at: Date; doc: unknown; big: bigint; bytes: Uint8Array }>(
      `SELECT $1::timestamptz AS at, $2::jsonb AS doc, 9007199254740993::int8 AS big, '\\x00ff10'::bytea AS bytes`,
      [at, JSON.stringify({ 한국어: ["질문", 1] })],
    );
    expect(rows[0]?.at).toEqual(at);
    expect(rows[0]?.doc).toEqual({ 한국어: ["질문", 1] });
    expect(rows[0]?.big).toBe(9007199254740993n);
    expect([...(rows[0]?.bytes ?? [])]).toEqual([0, 255, 16]);
  });
});

describe("a closed embedded database", () => {
  it("refuses statements at once instead of leaving them waiting", async () => {
    const db = await openTestDatabase("embedded");
    await db.close();
    await expect(db.raw.query(`SELECT 1`)).rejects.toThrow(/exited|closed/);
  });
});
