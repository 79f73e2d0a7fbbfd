import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startPostgresServer, type PostgresServer } from "@weft/test-services";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe } from "vitest";
import { openDatabase, type Database, type DatabaseMode } from "../db/db.js";

/** Both persistence modes, for `describe.each`-style suites. */
export const databaseModes: readonly DatabaseMode[] = ["embedded", "server"];

export interface TestDatabase extends Database {
  /** Server: the database's connection string. Embedded: its data directory (or "memory://"). */
  location: string;
}

export interface TestDatabaseOptions {
  /** Embedded only: use a PGlite data directory in a fresh temp dir instead of memory. */
  onDisk?: boolean;
}

/*
 * One PostgreSQL server per test file (per worker process): started by the first server-mode
 * database, stopped when the last user releases it (and at process exit as a fallback). Each test
 * database is cloned from a migrated template with CREATE DATABASE … TEMPLATE, which is fast.
 */
let serverUsers = 0;
let sharedServer: Promise<{ server: PostgresServer; templateUrl: string }> | undefined;
let databaseCounter = 0;

async function startSharedServer(): Promise<{ server: PostgresServer; templateUrl: string }> {
  const server = await startPostgresServer({ database: "weft_template" });
  const template = await openDatabase({ mode: "server", url: server.url, migrate: true });
  await template.close();
  return { server, templateUrl: server.url };
}

/** Marks the file's PostgreSQL server as in use (starting it if needed); pair with releasePostgres. */
export async function acquirePostgres(): Promise<PostgresServer> {
  serverUsers += 1;
  sharedServer ??= startSharedServer();
  try {
    return (await sharedServer).server;
  } catch (error) {
    serverUsers -= 1;
    sharedServer = undefined;
    throw error;
  }
}

export async function releasePostgres(): Promise<void> {
  serverUsers -= 1;
  if (serverUsers > 0 || !sharedServer) return;
  const running = sharedServer;
  sharedServer = undefined;
  await (await running).server.stop();
}

async function cloneServerDatabase(): Promise<string> {
  const { server } = await (sharedServer ?? Promise.reject(new Error("acquirePostgres() first")));
  databaseCounter += 1;
  const name = `weft_test_${process.pid}_${databaseCounter}`;
  const admin = new pg.Client({ connectionString: server.urlFor("postgres") });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE weft_template`);
  } finally {
    await admin.end();
  }
  return server.urlFor(name);
}

let embeddedTemplate: Promise<Blob> | undefined;

/** A migrated empty PGlite data directory as a tarball, built once per process. */
function migratedEmbeddedTemplate(): Promise<Blob> {
  embeddedTemplate ??= (async () => {
    const db = await openDatabase({ mode: "embedded", dataDir: "memory://", migrate: true });
    try {
      if (!db.embedded) throw new Error("an embedded database has a thread");
      return await db.embedded.dumpDataDir("none");
    } finally {
      await db.close();
    }
  })();
  return embeddedTemplate;
}

/**
 * A fresh, migrated database in the given mode; close it when done. Embedded databases live in
 * memory (restored from a migrated template) unless `onDisk` is set; server databases are new
 * databases on the file's PostgreSQL server (call releasePostgres() after closing, or use
 * withTestDatabase / describeEachDatabase, which do).
 */
export async function openTestDatabase(mode: DatabaseMode, options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  if (mode === "server") {
    const url = await cloneServerDatabase();
    return Object.assign(await openDatabase({ mode, url, migrate: false }), { location: url });
  }
  if (options.onDisk) {
    const dir = await mkdtemp(path.join(os.tmpdir(), "weft-pglite-"));
    const dataDir = path.join(dir, "pglite");
    const db = await openDatabase({ mode, dataDir, migrate: true });
    const close = db.close;
    return Object.assign(db, {
      location: dataDir,
      close: async () => {
        await close();
        await rm(dir, { recursive: true, force: true });
      },
    });
  }
  const restoreFrom = await migratedEmbeddedTemplate();
  return Object.assign(await openDatabase({ mode, dataDir: "memory://", restoreFrom, migrate: false }), {
    location: "memory://",
  });
}

/** Runs `use` with a fresh database and cleans up whatever happens. */
export async function withTestDatabase<T>(
  mode: DatabaseMode,
  use: (db: TestDatabase) => Promise<T>,
  options: TestDatabaseOptions = {},
): Promise<T> {
  if (mode === "server") await acquirePostgres();
  try {
    const db = await openTestDatabase(mode, options);
    try {
      return await use(db);
    } finally {
      await db.close();
    }
  } finally {
    if (mode === "server") await releasePostgres();
  }
}

/** Empties every table except Prisma's migration history, so a test starts from a clean database. */
export async function truncateAllTables(db: Database): Promise<void> {
  const { rows } = await db.raw.query<{ name: string }>(
    `SELECT quote_ident(tablename) AS name FROM pg_tables
      WHERE schemaname = current_schema() AND tablename <> '_prisma_migrations'`,
  );
  if (rows.length === 0) return;
  await db.raw.exec(`TRUNCATE ${rows.map((row) => row.name).join(", ")} RESTART IDENTITY CASCADE`);
}

export interface DatabaseSuite {
  mode: DatabaseMode;
  /** The current test's database, empty at the start of every test. */
  db(): TestDatabase;
}

export interface DatabaseSuiteOptions {
  /** Default: both. */
  modes?: readonly DatabaseMode[];
  /**
   * "truncate" (default): one database per suite, every table emptied before each test — fast.
   * "database": a new database for every test — slower (about a second each in embedded mode),
   * for tests that change the schema or need a pristine catalogue.
   */
  isolation?: "truncate" | "database";
}

/**
 * Declares the same suite once per mode ("<name> (embedded)", "<name> (server)"); each test sees
 * an empty migrated database through `suite.db()`. The server mode needs PostgreSQL installed and
 * fails (never skips) without it.
 */
export function describeEachDatabase(
  name: string,
  body: (suite: DatabaseSuite) => void,
  options: DatabaseSuiteOptions = {},
): void {
  const isolation = options.isolation ?? "truncate";
  for (const mode of options.modes ?? databaseModes) {
    describe(`${name} (${mode})`, () => {
      let shared: TestDatabase | undefined;
      let current: TestDatabase | undefined;
      beforeAll(async () => {
        if (mode === "server") await acquirePostgres();
        if (isolation === "truncate") shared = await openTestDatabase(mode);
      }, 120_000);
      afterAll(async () => {
        await shared?.close();
        if (mode === "server") await releasePostgres();
      });
      beforeEach(async () => {
        if (shared) await truncateAllTables(shared);
        current = shared ?? (await openTestDatabase(mode));
      }, 60_000);
      afterEach(async () => {
        if (current !== shared) await current?.close();
        current = undefined;
      });
      body({
        mode,
        db: () => {
          if (!current) throw new Error("suite.db() is available inside tests and hooks only");
          return current;
        },
      });
    });
  }
}
