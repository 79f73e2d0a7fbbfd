import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { PostgresServer } from "@weft/test-services";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase } from "../db/db.js";
import { acquirePostgres, releasePostgres } from "../testing/database.js";

/**
 * The API as an operator starts it, in its own process (`src/main.ts`, as `dist/main.js` runs it),
 * meeting the usual reasons to refuse. Each refusal must be one JSON log line on stdout with its code,
 * no stack trace, nothing on stderr, and a non-zero exit.
 */
const API_DIR = resolve(import.meta.dirname, "../..");

interface Exited {
  code: number | null;
  stdout: string;
  stderr: string;
}

function startApi(env: Record<string, string>): Promise<Exited> {
  const child = spawn(process.execPath, ["--conditions=weft-source", "--import", "tsx", "src/main.ts"], {
    cwd: API_DIR,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  // A refusal ends the process by itself; one that starts instead is stopped so the test can say so.
  const guard = setTimeout(() => child.kill("SIGTERM"), 60_000);
  return new Promise((done) =>
    child.on("close", (code) => {
      clearTimeout(guard);
      done({ code, stdout, stderr });
    }),
  );
}

function expectOneJsonRefusal(exited: Exited, code: string, exitCode = 1): Record<string, unknown> {
  expect(exited.stderr).toBe("");
  const lines = exited.stdout.split("\n").filter((line) => line.trim() !== "");
  const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  const fatal = parsed.filter((line) => line["level"] === 60);
  expect(fatal).toEqual([expect.objectContaining({ code, service: "weft-api", msg: expect.stringMatching(/^(the API did not start|invalid configuration)/) })]);
  expect(exited.stdout).not.toMatch(/"stack"|\\n\s+at /);
  expect(exited.code).toBe(exitCode);
  return fatal[0]!;
}

/** Each test starts a process that compiles the sources first: slow on a loaded machine. */
const PROCESS_TEST_MS = 120_000;

describe("the API refusing to start", () => {
  let server: PostgresServer;
  let counter = 0;
  const freshDatabase = async (migrated: boolean) => {
    const name = `refusal_${++counter}`;
    const admin = await openDatabase({ mode: "server", url: server.urlFor("postgres"), requireMigrated: false });
    await admin.raw.exec(`CREATE DATABASE ${name}`);
    await admin.close();
    const url = server.urlFor(name);
    if (migrated) {
      const db = await openDatabase({ mode: "server", url, migrate: true });
      await db.close();
    }
    return url;
  };

  beforeAll(async () => {
    server = await acquirePostgres();
  }, 120_000);
  afterAll(releasePostgres);

  test("an invalid setting: one line naming it, exit 2", async () => {
    const refusal = expectOneJsonRefusal(await startApi({ PORT: "not-a-port" }), "ENV_INVALID", 2);
    expect(JSON.stringify(refusal["issues"])).toContain("PORT");
  }, PROCESS_TEST_MS);

  test("a database server that cannot be reached: DB_CONNECT_FAILED", async () => {
    expectOneJsonRefusal(await startApi({ DATABASE_URL: "postgresql://weft@127.0.0.1:1/weft" }), "DB_CONNECT_FAILED");
  }, PROCESS_TEST_MS);

  test("a database behind its migrations: DB_MIGRATIONS_PENDING naming the command to run", async () => {
    const refusal = expectOneJsonRefusal(await startApi({ DATABASE_URL: await freshDatabase(false) }), "DB_MIGRATIONS_PENDING");
    expect(refusal["msg"]).toContain("migrate");
  }, PROCESS_TEST_MS);

  test("a database ahead of its migrations (migrated by a newer release): DB_MIGRATIONS_AHEAD", async () => {
    const url = await freshDatabase(true);
    const db = await openDatabase({ mode: "server", url });
    await db.raw.exec(`INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
      VALUES ('newer', 'x', '29991231000000_from_a_newer_release', now(), now(), 1)`);
    await db.close();
    const refusal = expectOneJsonRefusal(await startApi({ DATABASE_URL: url }), "DB_MIGRATIONS_AHEAD");
    expect(refusal["msg"]).toContain("29991231000000_from_a_newer_release");
  }, PROCESS_TEST_MS);

  test("an embedded data directory another process holds: DB_DATA_DIR_LOCKED", async () => {
    const dir = await mkdtemp(join(tmpdir(), "weft-locked-"));
    const holder = await openDatabase({ mode: "embedded", dataDir: join(dir, "pglite") });
    try {
      expectOneJsonRefusal(await startApi({ WEFT_DATA_DIR: dir }), "DB_DATA_DIR_LOCKED");
    } finally {
      await holder.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, PROCESS_TEST_MS);
});
