import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { diffSchema } from "./migrate.js";
import { defaultMigrationsDir, defaultSchemaPath, readMigrationsDir } from "./migrations-dir.js";

const run = promisify(execFile);
const apiDir = path.resolve(import.meta.dirname, "../..");

describe("migrations folder", () => {
  it("agrees with schema.prisma (run `pnpm --filter @weft/api db:migrate create <name>` when this fails)", async () => {
    const sql = await diffSchema();
    expect(sql, `schema.prisma needs a migration:\n${sql}`).toBe("");
  }, 60_000);

  it("catches a schema change that has no migration", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "weft-drift-"));
    try {
      const schemaPath = path.join(dir, "schema.prisma");
      const schema = await readFile(defaultSchemaPath, "utf8");
      await writeFile(schemaPath, `${schema}\nmodel Tag {\n  id   String @id\n  name String\n}\n`);
      const sql = await diffSchema({ schemaPath });
      expect(sql).toMatch(/CREATE TABLE "Tag"/);
      expect(sql).not.toMatch(/CREATE TABLE "Workflow"/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("holds timestamped migration folders and a PostgreSQL lock file, as Prisma expects", async () => {
    const list = await readMigrationsDir();
    expect(list.lockfile.content).toMatch(/provider = "postgresql"/);
    expect(list.migrationDirectories.length).toBeGreaterThan(0);
    for (const migration of list.migrationDirectories) {
      expect(migration.path).toMatch(/^\d{14}_[a-z0-9_]+$/);
      expect(migration.migrationFile.content.tag).toBe("ok");
    }
    const names = (await readdir(defaultMigrationsDir)).filter((name) => name !== "migration_lock.toml");
    expect(names.sort()).toEqual(list.migrationDirectories.map((migration) => migration.path));
  });

  it("agrees with the Prisma CLI's migrate diff, run through the schema-engine stand-in", async () => {
    const env = {
      ...process.env,
      CHECKPOINT_DISABLE: "1",
      PRISMA_SCHEMA_ENGINE_BINARY: path.resolve(apiDir, "../../scripts/prisma-schema-engine"),
    };
    const prisma = path.join(apiDir, "node_modules/.bin/prisma");
    const schema = ["--to-schema", defaultSchemaPath, "--script"];
    // --exit-code makes the CLI exit 2, and execFile reject, when the diff is not empty.
    const fromMigrations = await run(
      prisma,
      ["migrate", "diff", "--from-migrations", defaultMigrationsDir, ...schema, "--exit-code"],
      { cwd: apiDir, env },
    );
    expect(fromMigrations.stdout).not.toMatch(/CREATE TABLE/);
    const fromEmpty = await run(prisma, ["migrate", "diff", "--from-empty", ...schema], { cwd: apiDir, env });
    expect(fromEmpty.stdout).toMatch(/CREATE TABLE "RunEvent"/);
  }, 120_000);
});
