import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { PostgresServer } from "@weft/test-services";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acquirePostgres, describeEachDatabase, releasePostgres } from "../testing/database.js";
import { persistenceContract } from "../testing/persistence-contract.js";
import { openDatabase } from "./db.js";
import { defaultMigrationsDir, readMigrationsDir } from "./migrations-dir.js";

const run = promisify(execFile);
const apiDir = path.resolve(import.meta.dirname, "../..");
const repoDir = path.resolve(apiDir, "../..");

describeEachDatabase("server persistence", (suite) => persistenceContract(suite.db), { modes: ["server"] });

describe("migrations on a PostgreSQL server", () => {
  let server: PostgresServer;
  let counter = 0;
  const freshDatabase = async () => {
    counter += 1;
    const name = `migrations_${counter}`;
    const admin = await openDatabase({ mode: "server", url: server.urlFor("postgres"), requireMigrated: false });
    try {
      await admin.raw.exec(`CREATE DATABASE ${name}`);
    } finally {
      await admin.close();
    }
    return server.urlFor(name);
  };

  beforeAll(async () => {
    server = await acquirePostgres();
  }, 120_000);
  afterAll(releasePostgres);

  it("refuses an unmigrated server database unless asked to migrate, and migrates once when asked twice at once", async () => {
    const url = await freshDatabase();
    await expect(openDatabase({ mode: "server", url })).rejects.toMatchObject({ code: "DB_MIGRATIONS_PENDING" });
    const untouched = await openDatabase({ mode: "server", url, requireMigrated: false });
    expect(await untouched.migrationStatus()).toMatchObject({ upToDate: false, hasMigrationsTable: false });
    await untouched.close();

    const [a, b] = await Promise.all([
      openDatabase({ mode: "server", url, requireMigrated: false }),
      openDatabase({ mode: "server", url, requireMigrated: false }),
    ]);
    const applied = await Promise.all([a.migrate(), b.migrate()]);
    const all = (await readMigrationsDir()).migrationDirectories.map((migration) => migration.path);
    expect(applied.flat()).toEqual(all);
    expect(await a.migrationStatus()).toMatchObject({ upToDate: true });
    await Promise.all([a.close(), b.close()]);
  }, 60_000);

  it("sends a migration script whole, so semicolons in comments and strings survive", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "weft-migrations-"));
    try {
      await cp(defaultMigrationsDir, dir, { recursive: true });
      await mkdir(path.join(dir, "29990101000000_semicolons"));
      await writeFile(
        path.join(dir, "29990101000000_semicolons", "migration.sql"),
        "-- a comment; with a semicolon\nCREATE TABLE notes (body text NOT NULL DEFAULT 'a;b');\nINSERT INTO notes DEFAULT VALUES;\n",
      );
      const db = await openDatabase({ mode: "server", url: await freshDatabase(), migrationsDir: dir, migrate: true });
      try {
        expect((await db.raw.query("SELECT body FROM notes")).rows).toEqual([{ body: "a;b" }]);
      } finally {
        await db.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("agrees with the Prisma CLI: migrate status through the schema-engine stand-in finds nothing to do", async () => {
    const url = await freshDatabase();
    const db = await openDatabase({ mode: "server", url, migrate: true });
    await db.close();
    const env = {
      ...process.env,
      DATABASE_URL: url,
      CHECKPOINT_DISABLE: "1",
      PRISMA_SCHEMA_ENGINE_BINARY: path.join(repoDir, "scripts/prisma-schema-engine"),
    };
    const status = await run(path.join(apiDir, "node_modules/.bin/prisma"), ["migrate", "status"], { cwd: apiDir, env });
    expect(status.stdout).toMatch(/Database schema is up to date/);
    const deploy = await run(path.join(apiDir, "node_modules/.bin/prisma"), ["migrate", "deploy"], { cwd: apiDir, env });
    expect(deploy.stdout).toMatch(/No pending migrations to apply/);
  }, 120_000);

  it("reports an unreachable server with a stable code", async () => {
    const url = server.urlFor("postgres").replace(`:${server.port}/`, ":1/");
    await expect(openDatabase({ mode: "server", url })).rejects.toMatchObject({ code: "DB_CONNECT_FAILED" });
  });
});
