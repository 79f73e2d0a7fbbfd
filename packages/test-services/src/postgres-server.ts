import { execFile, execFileSync } from "node:child_process";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { chown, mkdtemp, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { cleanUpOnExit } from "./clean-up-on-exit.js";
import { freePort } from "./free-port.js";

const run = promisify(execFile);

/** A throw-away PostgreSQL server on loopback, owned by the test that started it. */
export interface PostgresServer {
  /** Connection string of the database created at start (`weft`). */
  url: string;
  port: number;
  /** Connection string for another database on the same server. */
  urlFor(database: string): string;
  /** Stops the server (immediate shutdown) and deletes its directory. Safe to call twice. */
  stop(): Promise<void>;
}

export interface StartPostgresOptions {
  /** Folder holding initdb and pg_ctl; default: the newest /usr/lib/postgresql/<version>/bin. */
  binDir?: string;
  /** Name of the database created at start. */
  database?: string;
}

export class PostgresServerError extends Error {
  readonly code = "TEST_POSTGRES_UNAVAILABLE";
  override readonly name = "PostgresServerError";
}

/** Debian installs the server binaries in a versioned folder that is not on PATH. */
export function findPostgresBinDir(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(path.join(root, name, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const newest = versions[0];
  if (newest === undefined) {
    throw new PostgresServerError(
      "PostgreSQL is not installed: no /usr/lib/postgresql/<version>/bin/initdb (apt-get install postgresql, or run scripts/ensure-test-services.sh)",
    );
  }
  return path.join(root, newest, "bin");
}

/**
 * initdb refuses to run as root, so as root every server command runs as the `postgres` user
 * (created by Debian's package) in a directory handed over to it.
 */
interface Runner {
  asUser(command: string, args: string[]): [string, string[]];
  prepare(dir: string): Promise<void>;
}

function runnerForCurrentUser(): Runner {
  if (process.getuid?.() !== 0) {
    return { asUser: (command, args) => [command, args], prepare: async () => undefined };
  }
  let ids: { uid: number; gid: number };
  try {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    ids = { uid, gid };
  } catch (error) {
    throw new PostgresServerError("running as root needs the `postgres` user that Debian's postgresql package creates", {
      cause: error,
    });
  }
  return {
    asUser: (command, args) => ["runuser", ["-u", "postgres", "--", command, ...args]],
    prepare: (dir) => chown(dir, ids.uid, ids.gid),
  };
}

async function serverLog(logFile: string): Promise<string> {
  const text = await readFile(logFile, "utf8").catch(() => "");
  return text.split("\n").slice(-15).join("\n");
}

/**
 * Starts a real PostgreSQL server for tests: initdb into a fresh temp directory, pg_ctl start on a
 * free loopback port with its unix socket inside that directory, then creates a database. Durability
 * is switched off (fsync, synchronous_commit, full_page_writes) because the data is thrown away.
 * A process exit hook stops the server if the test forgets to.
 */
export async function startPostgresServer(options: StartPostgresOptions = {}): Promise<PostgresServer> {
  const binDir = options.binDir ?? findPostgresBinDir();
  const database = options.database ?? "weft";
  const runner = runnerForCurrentUser();
  const dir = await mkdtemp(path.join(os.tmpdir(), "weft-pg-"));
  const dataDir = path.join(dir, "data");
  const logFile = path.join(dir, "server.log");
  await runner.prepare(dir);
  const pgCtl = path.join(binDir, "pg_ctl");
  const exec = (command: string, args: string[]) => run(...runner.asUser(command, args));

  let port = 0;
  let started = false;
  const stopSync = () => {
    if (started) {
      started = false;
      try {
        execFileSync(...runner.asUser(pgCtl, ["-D", dataDir, "-m", "immediate", "-w", "stop"]), { stdio: "ignore" });
      } catch {
        // Already gone; the directory is removed below either way.
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const unhook = cleanUpOnExit(stopSync);

  try {
    await exec(path.join(binDir, "initdb"), [
      ...["-D", dataDir, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C"],
      ...["--no-sync", "--no-instructions"],
    ]);
    port = await startOnFreePort(exec, pgCtl, dataDir, dir, logFile);
    started = true;
    const urlFor = (name: string) => `postgresql://postgres@127.0.0.1:${port}/${name}`;
    await createDatabase(urlFor("postgres"), database);
    return {
      url: urlFor(database),
      port,
      urlFor,
      async stop() {
        unhook();
        if (started) {
          started = false;
          // A server that already died has nothing to stop; its directory still goes.
          await exec(pgCtl, ["-D", dataDir, "-m", "immediate", "-w", "stop"]).catch(() => undefined);
        }
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    const log = await serverLog(logFile);
    unhook();
    stopSync();
    if (error instanceof PostgresServerError) throw error;
    throw new PostgresServerError(`could not start PostgreSQL from ${binDir}: ${(error as Error).message}\n${log}`, {
      cause: error,
    });
  }
}

type Exec = (command: string, args: string[]) => Promise<unknown>;

/** Another process may take the port between probing and binding; then try another one. */
async function startOnFreePort(exec: Exec, pgCtl: string, dataDir: string, socketDir: string, logFile: string): Promise<number> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const port = await freePort();
    const settings = [
      `-p ${port}`,
      `-k ${socketDir}`,
      "-c listen_addresses=127.0.0.1",
      "-c fsync=off",
      "-c synchronous_commit=off",
      "-c full_page_writes=off",
      "-c max_connections=200",
      "-c shared_buffers=32MB",
    ].join(" ");
    try {
      await exec(pgCtl, ["-D", dataDir, "-l", logFile, "-o", settings, "-w", "-t", "60", "start"]);
      return port;
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

async function createDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}
