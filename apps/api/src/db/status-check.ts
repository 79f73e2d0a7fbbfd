import { Prisma } from "../generated/prisma/client.js";

/**
 * `column IN ('A', 'B')` written so that no index on the column can answer it (the column is compared as
 * text): for statements that find their rows by key and only check a status.
 *
 * The embedded database prepares the run path's statements once (planned-statements.ts) and keeps the
 * generic plan it chose then — on tables nearly empty and without statistics (PGlite runs no autovacuum,
 * so none are ever gathered). Offered `status IN …`, such a plan reads the status index instead of the
 * key: on `"Run"`, whose (status, createdAt) entries for QUEUED and RUNNING include every earlier version
 * of every run (never vacuumed), and on `"HumanTask"`, whose OPEN entries are every waiting task. Each
 * claim, event batch and parking then costs as much as the table is large: with 10,000 runs waiting for a
 * person, runs without human steps went three times slower. Compared as text, the status is a filter on
 * the row the key found.
 */
export function statusCheck(column: string, statuses: readonly string[]): Prisma.Sql {
  if (!/^("?\w+"?\.)?"?\w+"?$/.test(column) || statuses.some((status) => !/^[A-Z_]+$/.test(status))) throw new Error("statusCheck takes a column name and status literals");
  return Prisma.raw(`${column}::text IN (${statuses.map((status) => `'${status}'`).join(", ")})`);
}
