import { readFile } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import type { HistoryDiagnostic } from "@prisma/schema-engine-wasm/schema_engine_bg";
import { DatabaseError } from "./database-error.js";
import { defaultMigrationsDir, defaultSchemaPath, readMigrationsDir } from "./migrations-dir.js";
import { connectPGliteShadow, PGliteAdapterFactory } from "./pglite-adapter.js";
import { createSchemaEngine, type SchemaEngine } from "./schema-engine.js";
import { summarizeEngineError } from "./migration-failure.js";

const noFilters = { externalTables: [], externalEnums: [] };

export interface MigrationOptions {
  /** Defaults to the repository's `prisma/migrations`. */
  migrationsDir?: string;
}

export interface MigrationStatus {
  /** Migrations in the folder that the database has not applied yet, in order. */
  pending: string[];
  failed: string[];
  /** Applied migrations whose file changed since (checksum mismatch). */
  edited: string[];
  /** Applied migrations that the folder does not have. */
  unknown: string[];
  hasMigrationsTable: boolean;
  upToDate: boolean;
}

async function withEngine<T>(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  use: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  const engine = await createSchemaEngine(adapterFactory);
  try {
    return await use(engine);
  } finally {
    engine.free();
  }
}

function engineFailure(what: string, error: unknown): DatabaseError {
  const detail = summarizeEngineError(error instanceof Error ? error.message : String(error));
  return new DatabaseError("DB_MIGRATION_FAILED", `${what} failed: ${detail}`, { cause: error });
}

/**
 * Applies the migrations the database has not applied yet, like `prisma migrate deploy`: each one is
 * recorded in `_prisma_migrations` with Prisma's checksum, so running it again applies nothing.
 */
export async function applyMigrations(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  options: MigrationOptions = {},
): Promise<string[]> {
  const migrationsList = await readMigrationsDir(options.migrationsDir ?? defaultMigrationsDir);
  return withEngine(adapterFactory, async (engine) => {
    try {
      const output = await engine.applyMigrations({ migrationsList, filters: noFilters });
      return output.appliedMigrationNames;
    } catch (error) {
      throw engineFailure("Applying migrations", error);
    }
  });
}

function describeHistory(history: HistoryDiagnostic | null | undefined): Pick<MigrationStatus, "pending" | "unknown"> {
  if (!history) return { pending: [], unknown: [] };
  switch (history.diagnostic) {
    case "databaseIsBehind":
      return { pending: history.unappliedMigrationNames, unknown: [] };
    case "migrationsDirectoryIsBehind":
      return { pending: [], unknown: history.unpersistedMigrationNames };
    case "historiesDiverge":
      return { pending: history.unappliedMigrationNames, unknown: history.unpersistedMigrationNames };
  }
}

/** Compares the database's migration history with the folder, like `prisma migrate status`. */
export async function migrationStatus(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  options: MigrationOptions = {},
): Promise<MigrationStatus> {
  const migrationsList = await readMigrationsDir(options.migrationsDir ?? defaultMigrationsDir);
  return withEngine(adapterFactory, async (engine) => {
    try {
      const output = await engine.diagnoseMigrationHistory({
        migrationsList,
        optInToShadowDatabase: false,
        filters: noFilters,
      });
      const { pending, unknown } = describeHistory(output.history);
      const failed = output.failedMigrationNames;
      const edited = output.editedMigrationNames;
      const upToDate = pending.length + unknown.length + failed.length + edited.length === 0;
      return { pending, unknown, failed, edited, hasMigrationsTable: output.hasMigrationsTable, upToDate };
    } catch (error) {
      throw engineFailure("Reading the migration history", error);
    }
  });
}

export interface DiffOptions extends MigrationOptions {
  /** Defaults to the repository's `prisma/schema.prisma`. */
  schemaPath?: string;
}

/**
 * The SQL that would bring a database built from the migrations to the state schema.prisma
 * describes; empty when they agree. The migrations are replayed on a throw-away in-memory PGlite,
 * so no database server is needed.
 */
export async function diffSchema(options: DiffOptions = {}): Promise<string> {
  const schemaPath = path.resolve(options.schemaPath ?? defaultSchemaPath);
  const content = await readFile(schemaPath, "utf8");
  const migrations = await readMigrationsDir(options.migrationsDir ?? defaultMigrationsDir);
  const factory = new InMemoryPGliteFactory();
  try {
    return await withEngine(factory, async (engine) => {
      try {
        const result = await engine.diff({
          from: { tag: "migrations", ...migrations },
          to: { tag: "schemaDatamodel", files: [{ path: schemaPath, content }] },
          script: true,
          exitCode: null,
          filters: noFilters,
        });
        const sql = result.stdout ?? "";
        return isEmptyScript(sql) ? "" : sql;
      } catch (error) {
        throw engineFailure("Diffing the schema", error);
      }
    });
  } finally {
    await factory.close();
  }
}

/**
 * Diffing needs only the shadow database; the main one is created the first time the engine asks
 * for it, so each PGlite start (slow: it runs initdb) happens only when needed.
 */
class InMemoryPGliteFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = "postgres";
  readonly adapterName = "pglite-prisma-adapter";
  private main: PGlite | undefined;

  connect() {
    this.main ??= new PGlite();
    return new PGliteAdapterFactory(this.main).connect();
  }

  connectToShadowDb() {
    return connectPGliteShadow();
  }

  async close(): Promise<void> {
    await this.main?.close();
  }
}

/** Prisma prints a comment, not an empty string, when there is nothing to migrate. */
function isEmptyScript(sql: string): boolean {
  return sql
    .split("\n")
    .map((line) => line.trim())
    .every((line) => line === "" || line.startsWith("--"));
}
