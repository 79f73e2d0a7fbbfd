import { createHash } from "node:crypto";
import type { MigrationList } from "@prisma/schema-engine-wasm/schema_engine_bg";
import type { RawQueryable } from "./raw-sql.js";

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished: boolean;
  rolled_back: boolean;
}

export interface MigrationCheck {
  /** Folder migrations without a successful, unchanged record in `_prisma_migrations`. */
  unapplied: string[];
  /** Records of migrations that started and neither finished nor were rolled back. */
  failed: string[];
  /** Applied migrations this release does not have: the database was migrated by a newer release. */
  ahead: string[];
}

/**
 * Reads `_prisma_migrations` directly to tell, without starting the schema engine, whether every
 * migration in the folder is applied unchanged (Prisma's checksum is the SHA-256 of the script).
 * Used to skip the engine on an up-to-date database and to refuse one that is behind or ahead.
 */
export async function checkMigrations(raw: RawQueryable, list: MigrationList): Promise<MigrationCheck> {
  const { rows: exists } = await raw.query<{ present: boolean }>(
    "SELECT to_regclass('_prisma_migrations') IS NOT NULL AS present",
  );
  const rows = exists[0]?.present
    ? (
        await raw.query<AppliedRow>(
          `SELECT migration_name, checksum, finished_at IS NOT NULL AS finished,
                  rolled_back_at IS NOT NULL AS rolled_back
             FROM _prisma_migrations`,
        )
      ).rows
    : [];
  const applied = new Set(
    rows.filter((row) => row.finished && !row.rolled_back).map((row) => `${row.migration_name}:${row.checksum}`),
  );
  const unapplied = list.migrationDirectories
    .filter((migration) => {
      const content = migration.migrationFile.content;
      if (content.tag !== "ok") return true;
      const checksum = createHash("sha256").update(content.value).digest("hex");
      return !applied.has(`${migration.path}:${checksum}`);
    })
    .map((migration) => migration.path);
  const failed = rows.filter((row) => !row.finished && !row.rolled_back).map((row) => row.migration_name);
  const known = new Set(list.migrationDirectories.map((migration) => migration.path));
  const ahead = rows.filter((row) => row.finished && !row.rolled_back && !known.has(row.migration_name)).map((row) => row.migration_name);
  return { unapplied, failed, ahead };
}
