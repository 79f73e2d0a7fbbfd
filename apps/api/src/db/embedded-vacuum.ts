import { Prisma } from "../generated/prisma/client.js";
import type { RawSql } from "./raw-sql.js";

/**
 * For the embedded database, what a PostgreSQL server's autovacuum does on its own: PGlite runs none, so
 * without this the dead versions every run update leaves (a run's row is written four or five times)
 * and their index entries are never reclaimed, and the planner never gets statistics. VACUUM (ANALYZE)
 * of Weft's tables (Prisma's models; the vector stores' tables look after themselves): it reads only
 * pages changed since the last pass, and the new statistics also make the database re-plan its kept
 * statements. Returns how many tables it vacuumed.
 */
export async function vacuumEmbedded(sql: Pick<RawSql, "exec">): Promise<number> {
  const tables = Object.values(Prisma.ModelName);
  await sql.exec(`VACUUM (ANALYZE) ${tables.map((table) => `"${table}"`).join(", ")}`);
  return tables.length;
}
