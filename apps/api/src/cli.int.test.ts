import { spawn } from "node:child_process";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { PostgresServer } from "@weft/test-services";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase } from "./db/db.js";
import { acquirePostgres, releasePostgres } from "./testing/database.js";

/**
 * The operator commands as a production install runs them: the built `dist/cli.js` under plain node
 * (no tsx, no development dependency), and through `pnpm --silent`. `./weft test` builds before testing;
 * run `pnpm --filter @weft/api build` first when running this file alone.
 */
const API_DIR = resolve(import.meta.dirname, "..");
const REPO_DIR = resolve(API_DIR, "../..");
const CLI = join(API_DIR, "dist/cli.js");
const PROCESS_TEST_MS = 120_000;

interface Exited {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], env: Record<string, string>, cwd = API_DIR): Promise<Exited> {
  const child = spawn(command, args, { cwd, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((done) => child.on("close", (code) => done({ code, stdout, stderr })));
}

const cli = (args: string[], env: Record<string, string>) => run(process.execPath, [CLI, ...args], env);

/** The newest modification time under a folder (sources), to tell a stale build. */
async function newest(dir: string): Promise<number> {
  let latest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) {
      latest = Math.max(latest, (await stat(join(entry.parentPath, entry.name))).mtimeMs);
    }
  }
  return latest;
}

beforeAll(async () => {
  const built = await stat(CLI).catch(() => null);
  if (!built || built.mtimeMs < (await newest(join(API_DIR, "src/db"))) || built.mtimeMs < (await stat(join(API_DIR, "src/cli.ts"))).mtimeMs) {
    throw new Error(`${CLI} is missing or older than its sources: run \`pnpm --filter @weft/api build\` (./weft test does)`);
  }
});

describe("create-key", () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "weft-cli-"));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  test("prints the key alone on stdout, with node and with pnpm --silent, so it can be captured", async () => {
    const KEY = /^weft_[A-Za-z0-9_-]{43}\n$/;
    const direct = await cli(["create-key", "--name", "admin", "--scopes", "admin"], { WEFT_DATA_DIR: dataDir });
    expect([direct.code, direct.stdout]).toEqual([0, expect.stringMatching(KEY)]);
    expect(direct.stderr).toContain("only time it is shown");

    const pnpm = process.env["npm_execpath"];
    const viaPnpm = pnpm?.endsWith(".cjs") || pnpm?.endsWith(".js")
      ? await run(process.execPath, [pnpm, "--silent", "--filter", "@weft/api", "run", "create-key", "--name", "ci", "--scopes", "read,run"], { WEFT_DATA_DIR: dataDir }, REPO_DIR)
      : await run("pnpm", ["--silent", "--filter", "@weft/api", "run", "create-key", "--name", "ci", "--scopes", "read,run"], { WEFT_DATA_DIR: dataDir }, REPO_DIR);
    expect([viaPnpm.code, viaPnpm.stdout]).toEqual([0, expect.stringMatching(KEY)]);
  }, PROCESS_TEST_MS);
});

describe("migrate on a PostgreSQL server", () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await acquirePostgres();
  }, 120_000);
  afterAll(releasePostgres);

  test("the built command migrates with plain node, and explains PostgreSQL 15's schema permission in one line", async () => {
    // What an operator following older guides does: a user granted ALL on a database it does not own.
    const admin = await openDatabase({ mode: "server", url: server.urlFor("postgres"), requireMigrated: false });
    for (const statement of ["CREATE ROLE weft_operator LOGIN", "CREATE DATABASE weft_granted", "GRANT ALL ON DATABASE weft_granted TO weft_operator"]) {
      await admin.raw.exec(statement);
    }
    const url = server.urlFor("weft_granted").replace("postgres@", "weft_operator@");

    const refused = await cli(["migrate"], { DATABASE_URL: url });
    expect(refused.code).toBe(1);
    const lines = refused.stderr.trim().split("\n");
    expect(lines).toEqual([expect.stringMatching(/^weft-api: DB_MIGRATION_FAILED: .*permission denied for schema public.*PostgreSQL 15.*OWNER/)]);
    expect(refused.stderr).not.toMatch(/sql_schema_connector|\.rs:\d+/);

    // The documented setup: the user owns the database.
    await admin.raw.exec("ALTER DATABASE weft_granted OWNER TO weft_operator");
    await admin.close();
    const migrated = await cli(["migrate"], { DATABASE_URL: url });
    expect([migrated.code, migrated.stdout]).toEqual([0, expect.stringMatching(/^applied: \d{14}_init/)]);
    const status = await cli(["migrate-status"], { DATABASE_URL: url });
    expect([status.code, JSON.parse(status.stdout)]).toEqual([0, expect.objectContaining({ upToDate: true })]);
  }, PROCESS_TEST_MS);
});
