import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "../generated/prisma/client.js";
import { lockDataDir } from "./data-dir-lock.js";
import { DatabaseError } from "./database-error.js";
import { applyMigrations, migrationStatus, type MigrationOptions, type MigrationStatus } from "./migrate.js";
import { checkMigrations } from "./migration-check.js";
import { defaultMigrationsDir, readMigrationsDir } from "./migrations-dir.js";
import { PgMigrationAdapterFactory } from "./pg-adapter.js";
import { openEmbeddedThread, type EmbeddedDatabaseThread } from "./embedded-thread.js";
import { pgRawSql, type RawSql } from "./raw-sql.js";
import { PlannedNames } from "./planned-statements.js";

export type DatabaseMode = "embedded" | "server";

export interface OpenDatabaseOptions extends MigrationOptions {
  mode: DatabaseMode;
  /** Embedded: PGlite's data directory (created if missing); `"memory://"` keeps it in memory. */
  dataDir?: string;
  /**
   * Embedded: start from this data directory tarball (made by PGlite's `dumpDataDir`) when the
   * directory is empty; tests use it to clone a migrated template.
   */
  restoreFrom?: Blob;
  /** Server: a `postgresql://` connection string. */
  url?: string;
  /**
   * Apply pending migrations before returning. Defaults to true in embedded mode (nothing to
   * install or run by hand) and false in server mode (run `db:migrate` as a deploy step).
   */
  migrate?: boolean;
  /**
   * When not migrating, refuse (DB_MIGRATIONS_PENDING) a database whose migrations are not all
   * applied. Default true; only tooling that inspects or repairs a database turns it off.
   */
  requireMigrated?: boolean;
  /** Server: the pool's size (pg's default is 10). */
  maxConnections?: number;
}

export interface Database {
  mode: DatabaseMode;
  prisma: PrismaClient;
  raw: RawSql;
  /**
   * Embedded only: the database's thread (PGlite runs on a worker thread of its own), e.g. its
   * `dumpDataDir()` for a backup tarball, or `adapterFactory` for a second Prisma Client on it.
   */
  embedded?: EmbeddedDatabaseThread;
  /** Embedded on disk: its data directory (absolute). Absent in memory and in server mode. */
  dataDir?: string;
  /** Applies pending migrations; returns the names it applied. */
  migrate(): Promise<string[]>;
  migrationStatus(): Promise<MigrationStatus>;
  close(): Promise<void>;
}

export const defaultEmbeddedDataDir = "./.weft-data/pglite";

/** Where the configuration (see env.ts) puts the database: DATABASE_URL means server mode. */
export function databaseOptionsFromEnv(env: { DATABASE_URL?: string | undefined; WEFT_DATA_DIR: string }): OpenDatabaseOptions {
  return env.DATABASE_URL
    ? { mode: "server", url: env.DATABASE_URL }
    : { mode: "embedded", dataDir: path.join(env.WEFT_DATA_DIR, "pglite") };
}

interface Parts {
  prisma: PrismaClient;
  raw: RawSql;
  /** A factory for one migration command; disposed after it. */
  migrationAdapter(): SqlMigrationAwareDriverAdapterFactory & { dispose?(): Promise<void> };
  embedded?: EmbeddedDatabaseThread;
  dataDir?: string;
  closeDriver(): Promise<void>;
}

async function openEmbedded(options: OpenDatabaseOptions): Promise<Parts> {
  const dataDir = options.dataDir ?? defaultEmbeddedDataDir;
  const inMemory = dataDir.startsWith("memory://");
  const location = inMemory ? dataDir : path.resolve(dataDir);
  if (!inMemory) await mkdir(path.dirname(location), { recursive: true });
  const lock = inMemory ? undefined : await lockDataDir(location);
  let thread: EmbeddedDatabaseThread;
  try {
    thread = await openEmbeddedThread({ dataDir: location, restoreFrom: options.restoreFrom });
  } catch (error) {
    await lock?.release();
    throw new DatabaseError("DB_CONNECT_FAILED", `cannot open the embedded database in ${dataDir}: ${String(error)}`, {
      cause: error,
    });
  }
  return {
    prisma: new PrismaClient({ adapter: thread.adapterFactory }),
    raw: thread.raw,
    migrationAdapter: () => thread.adapterFactory,
    embedded: thread,
    ...(inMemory ? {} : { dataDir: location }),
    async closeDriver() {
      await thread.close();
      await lock?.release();
    },
  };
}

async function openServer(options: OpenDatabaseOptions): Promise<Parts> {
  const url = options.url;
  if (!url || !/^postgres(ql)?:\/\//.test(url)) {
    throw new DatabaseError("DB_CONFIG_INVALID", "server mode needs a postgresql:// connection string (DATABASE_URL)");
  }
  const pool = new pg.Pool({ connectionString: url, max: options.maxConnections });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on("error", () => undefined);
  try {
    (await pool.connect()).release();
  } catch (error) {
    await pool.end();
    throw new DatabaseError("DB_CONNECT_FAILED", `cannot connect to PostgreSQL: ${(error as Error).message}`, {
      cause: error,
    });
  }
  // Statements marked planned(...), Prisma's and the raw handle's alike, are named from one list. The
  // adapter hands the name to pg as the query's `name`; undefined (typed as a string) leaves it unnamed.
  const names = new PlannedNames();
  const statementNameGenerator = (query: { sql: string }) => (names.nameOf(query.sql) ?? undefined) as string;
  return {
    prisma: new PrismaClient({ adapter: new PrismaPg(pool, { statementNameGenerator }) }),
    raw: pgRawSql(pool, names),
    migrationAdapter: () => new PgMigrationAdapterFactory(url),
    closeDriver: () => pool.end(),
  };
}

/**
 * Opens Weft's database in either mode with the same schema: embedded PGlite (with pgvector) in a
 * local directory, or a PostgreSQL server through `pg`. The Prisma Client, the raw SQL handle and
 * the migrations all share one PGlite instance or one pool.
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const parts = options.mode === "embedded" ? await openEmbedded(options) : await openServer(options);
  const migrationOptions: MigrationOptions = { migrationsDir: options.migrationsDir };
  const withMigrationAdapter = async <T>(use: (factory: SqlMigrationAwareDriverAdapterFactory) => Promise<T>) => {
    const factory = parts.migrationAdapter();
    try {
      return await use(factory);
    } finally {
      await factory.dispose?.();
    }
  };
  let closed = false;
  const database: Database = {
    mode: options.mode,
    prisma: parts.prisma,
    raw: parts.raw,
    embedded: parts.embedded,
    ...(parts.dataDir ? { dataDir: parts.dataDir } : {}),
    migrate: () => withMigrationAdapter((factory) => applyMigrations(factory, migrationOptions)),
    migrationStatus: () => withMigrationAdapter((factory) => migrationStatus(factory, migrationOptions)),
    async close() {
      if (closed) return;
      closed = true;
      await parts.prisma.$disconnect();
      await parts.closeDriver();
    },
  };
  try {
    await prepareSchema(database, options);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/**
 * Migrates (embedded default) or verifies (server default) the schema. Either way the migration
 * history is read with plain SQL first, so an up-to-date database opens without starting the
 * schema engine.
 */
async function prepareSchema(database: Database, options: OpenDatabaseOptions): Promise<void> {
  const migrate = options.migrate ?? options.mode === "embedded";
  if (!migrate && options.requireMigrated === false) return;
  const list = await readMigrationsDir(options.migrationsDir ?? defaultMigrationsDir);
  const check = await checkMigrations(database.raw, list);
  if (check.ahead.length > 0) {
    // Migrating would not undo them and this code does not know the schema they made.
    throw new DatabaseError(
      "DB_MIGRATIONS_AHEAD",
      `the database schema is ahead of this release (applied but unknown here: ${check.ahead.join(", ")}); ` +
        "it was migrated by a newer release: run that release, or restore a backup taken before the upgrade",
    );
  }
  if (check.unapplied.length === 0 && check.failed.length === 0) return;
  if (migrate) {
    await database.migrate();
    return;
  }
  const problems = [
    check.unapplied.length > 0 ? `not applied: ${check.unapplied.join(", ")}` : "",
    check.failed.length > 0 ? `failed: ${check.failed.join(", ")}` : "",
  ].filter(Boolean);
  throw new DatabaseError(
    "DB_MIGRATIONS_PENDING",
    `the database schema is behind (${problems.join("; ")}); run \`node apps/api/dist/cli.js migrate\` ` +
      "(or `pnpm --filter @weft/api db:migrate` in a development checkout)",
  );
}
