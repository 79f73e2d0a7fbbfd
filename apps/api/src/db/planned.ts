import { Prisma } from "../generated/prisma/client.js";
import { PLANNED_MARK } from "./planned-statements.js";

/**
 * `sql` marked as a statement the embedded database prepares once per session (planned-statements.ts).
 * Apart from the statements themselves, so the database thread does not load the Prisma Client.
 */
export function planned(sql: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`${Prisma.raw(PLANNED_MARK)} ${sql}`;
}
