import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeEachDatabase } from "../testing/database.js";
import { persistenceContract } from "../testing/persistence-contract.js";
import { databaseOptionsFromEnv, openDatabase, type Database } from "./db.js";

describeEachDatabase("embedded persistence", (suite) => persistenceContract(suite.db), { modes: ["embedded"] });

describe("embedded database on disk", () => {
  let dir: string;
  const opened: Database[] = [];
  const open = async (dataDir: string) => {
    const db = await openDatabase({ mode: "embedded", dataDir });
    opened.push(db);
    return db;
  };

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "weft-db-test-"));
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((db) => db.close()));
    await rm(dir, { recursive: true, force: true });
  });

  it("migrates on first start, applies nothing on the second and keeps the data", async () => {
    const dataDir = path.join(dir, "nested", "pglite");
    const first = await open(dataDir);
    const applied = await first.raw.query<{ n: number }>("SELECT count(*)::int AS n FROM _prisma_migrations");
    await first.prisma.workflow.create({ data: { name: "Kept", prompts: {}, outputFormat: "text" } });
    await first.close();

    const second = await open(dataDir);
    expect(await second.migrate()).toEqual([]);
    const again = await second.raw.query<{ n: number }>("SELECT count(*)::int AS n FROM _prisma_migrations");
    expect(again.rows).toEqual(applied.rows);
    expect((await second.prisma.workflow.findMany()).map((workflow) => workflow.name)).toEqual(["Kept"]);
  }, 60_000);

  it("refuses to open a data directory that is already open, and opens it once it is closed", async () => {
    const dataDir = path.join(dir, "pglite");
    const first = await open(dataDir);
    await expect(openDatabase({ mode: "embedded", dataDir })).rejects.toMatchObject({ code: "DB_DATA_DIR_LOCKED" });
    await first.close();
    const again = await open(dataDir);
    expect(await again.prisma.workflow.count()).toBe(0);
  }, 60_000);

  it("takes over the lock of a process that no longer exists", async () => {
    const dataDir = path.join(dir, "pglite");
    await writeFile(`${dataDir}.lock`, "2147483646");
    const db = await open(dataDir);
    expect(await db.prisma.workflow.count()).toBe(0);
  }, 60_000);

  it("restores a backup tarball into an empty data directory", async () => {
    const source = await open(path.join(dir, "source"));
    await source.prisma.workflow.create({ data: { name: "Backed up", prompts: {}, outputFormat: "text" } });
    const backup = await source.embedded!.dumpDataDir("gzip");
    await source.close();
    const restored = await openDatabase({ mode: "embedded", dataDir: path.join(dir, "restored"), restoreFrom: backup });
    opened.push(restored);
    expect((await restored.prisma.workflow.findMany()).map((workflow) => workflow.name)).toEqual(["Backed up"]);
  }, 60_000);

  it("has pgvector for the embedded vector store", async () => {
    const db = await open(path.join(dir, "pglite"));
    await db.raw.exec(`
      CREATE EXTENSION IF NOT EXISTS vector;
      CREATE TABLE chunks (id int PRIMARY KEY, embedding vector(3));
      CREATE INDEX ON chunks USING hnsw (embedding vector_cosine_ops);
    `);
    await db.raw.query("INSERT INTO chunks VALUES (1, $1), (2, $2)", ["[1,0,0]", "[0,1,0]"]);
    const { rows } = await db.raw.query<{ id: number; distance: number }>(
      "SELECT id, embedding <=> $1 AS distance FROM chunks ORDER BY embedding <=> $1 LIMIT 1",
      ["[0.9,0.1,0]"],
    );
    expect(rows[0]?.id).toBe(1);
    expect(rows[0]?.distance).toBeLessThan(0.1);
  }, 60_000);

  it("reports a failing migration with a stable code, records it as failed and refuses to go on", async () => {
    const migrationsDir = path.join(dir, "migrations");
    await cp(path.resolve(import.meta.dirname, "../../../../prisma/migrations"), migrationsDir, { recursive: true });
    await mkdir(path.join(migrationsDir, "29990101000000_broken"));
    await writeFile(path.join(migrationsDir, "29990101000000_broken", "migration.sql"), "ALTER TABLE missing ADD x int;");
    const failure = await openDatabase({ mode: "embedded", dataDir: path.join(dir, "pglite"), migrationsDir }).catch(
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({ code: "DB_MIGRATION_FAILED" });
    expect(String((failure as Error).message)).toMatch(/missing/);

    const refused = openDatabase({ mode: "embedded", dataDir: path.join(dir, "pglite"), migrationsDir, migrate: false });
    await expect(refused).rejects.toMatchObject({ code: "DB_MIGRATIONS_PENDING" });
    const db = await openDatabase({
      mode: "embedded",
      dataDir: path.join(dir, "pglite"),
      migrationsDir,
      migrate: false,
      requireMigrated: false,
    });
    opened.push(db);
    const { rows } = await db.raw.query<{ migration_name: string; finished: boolean }>(
      "SELECT migration_name, finished_at IS NOT NULL AS finished FROM _prisma_migrations ORDER BY migration_name",
    );
    const applied = rows.map((row) => [row.migration_name.slice(15), row.finished]);
    expect(applied[0]).toEqual(["init", true]);
    expect(applied.slice(0, -1).every(([, finished]) => finished)).toBe(true);
    expect(applied.at(-1)).toEqual(["broken", false]);
    expect(await db.migrationStatus()).toMatchObject({ upToDate: false, failed: ["29990101000000_broken"] });
    await expect(db.migrate()).rejects.toMatchObject({ code: "DB_MIGRATION_FAILED" });
  }, 60_000);
});

describe("database options from the environment", () => {
  it("uses the server when DATABASE_URL is set and PGlite under WEFT_DATA_DIR otherwise", () => {
    expect(databaseOptionsFromEnv({ DATABASE_URL: "postgresql://u@h/db", WEFT_DATA_DIR: "/d" })).toEqual({
      mode: "server",
      url: "postgresql://u@h/db",
    });
    expect(databaseOptionsFromEnv({ WEFT_DATA_DIR: "/d" })).toEqual({ mode: "embedded", dataDir: "/d/pglite" });
  });

  it("refuses server mode without a postgresql:// URL", async () => {
    await expect(openDatabase({ mode: "server", url: "mysql://x" })).rejects.toMatchObject({ code: "DB_CONFIG_INVALID" });
  });
});
