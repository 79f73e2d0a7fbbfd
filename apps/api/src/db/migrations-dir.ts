import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { MigrationDirectory, MigrationList } from "@prisma/schema-engine-wasm/schema_engine_bg";

/** The repository's `prisma/` folder; the same from `src/db` and from `dist/db`. */
export const defaultPrismaDir = fileURLToPath(new URL("../../../../prisma/", import.meta.url));

export const defaultSchemaPath = path.join(defaultPrismaDir, "schema.prisma");
export const defaultMigrationsDir = path.join(defaultPrismaDir, "migrations");

async function readOptional(file: string): Promise<string | null> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/**
 * Loads a Prisma migrations folder the way the Prisma CLI hands it to the schema engine: every
 * sub-folder is a migration (sorted by name, which starts with its timestamp) holding `migration.sql`,
 * plus `migration_lock.toml`. The engine computes checksums from these contents, so `_prisma_migrations`
 * rows written here are the ones `prisma migrate status` expects.
 */
export async function readMigrationsDir(migrationsDir: string = defaultMigrationsDir): Promise<MigrationList> {
  const baseDir = path.resolve(migrationsDir);
  const entries = await readdir(baseDir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
  const folders = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const migrationDirectories: MigrationDirectory[] = await Promise.all(
    folders.map(async (folder) => {
      const content = await readOptional(path.join(baseDir, folder, "migration.sql"));
      return {
        path: folder,
        migrationFile: {
          path: "migration.sql",
          content:
            content === null
              ? { tag: "error" as const, value: `missing ${folder}/migration.sql` }
              : { tag: "ok" as const, value: content },
        },
      };
    }),
  );
  const lockPath = "migration_lock.toml";
  return {
    baseDir,
    lockfile: { path: lockPath, content: await readOptional(path.join(baseDir, lockPath)) },
    shadowDbInitScript: "",
    migrationDirectories,
  };
}
