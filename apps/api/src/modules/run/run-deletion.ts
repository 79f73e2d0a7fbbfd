import { Prisma, type PrismaClient } from "../../generated/prisma/client.js";
import { planned } from "../../db/planned.js";
import { ACTIVE_RUN_STATUS_LIST, ACTIVE_RUN_STATUSES } from "../common/run-status.js";

/**
 * Rows of one table one statement deletes. A run may hold tens of thousands of events and node runs (a
 * map over 10,000 items makes 30,003 node runs); deleting them in one statement would hold the embedded
 * database, which answers one statement at a time, for seconds.
 */
export const DELETE_BATCH_ROWS = 2_000;

/** Runs one pass of the retention sweep looks at before it deletes them. */
export const RETENTION_BATCH_RUNS = 100;

export interface DeletedRun {
  runId: string;
  workflowId: string;
  version: number | null;
  status: "COMPLETED" | "FAILED" | "CANCELLED";
}

export type RunDeletion = { deleted: DeletedRun } | { refused: "NOT_FOUND" } | { refused: "RUN_ACTIVE"; status: string };

/**
 * Deletes a finished run with everything it stored: its node runs, tasks for people and events a batch at a time (each
 * statement short, other work gets the database in between), then the run itself in one statement —
 * the run disappears from every list and count at that moment. Thread messages it added stay in their
 * thread (a conversation is the thread's, not the run's) without their link to it; runs that re-ran it
 * lose theirs (the foreign key). An active run is refused: it is still writing (a finished run never
 * becomes active again, so the check holds for the rest of the deletion).
 */
export async function deleteFinishedRun(db: PrismaClient, runId: string, batchRows = DELETE_BATCH_ROWS): Promise<RunDeletion> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { status: true, workflowId: true, versionNumber: true } });
  if (!run) return { refused: "NOT_FOUND" };
  if ((ACTIVE_RUN_STATUSES as readonly string[]).includes(run.status)) return { refused: "RUN_ACTIVE", status: run.status };
  await deleteInBatches(db, planned(Prisma.sql`
    DELETE FROM "NodeRun" WHERE id IN (SELECT id FROM "NodeRun" WHERE "runId" = ${runId} LIMIT ${batchRows}::int)`));
  await deleteInBatches(db, planned(Prisma.sql`
    DELETE FROM "HumanTask" WHERE id IN (SELECT id FROM "HumanTask" WHERE "runId" = ${runId} LIMIT ${batchRows}::int)`));
  await deleteInBatches(db, planned(Prisma.sql`
    DELETE FROM "RunEvent" WHERE "runId" = ${runId}
       AND seq IN (SELECT seq FROM "RunEvent" WHERE "runId" = ${runId} ORDER BY seq DESC LIMIT ${batchRows}::int)`));
  await db.$executeRaw(planned(Prisma.sql`UPDATE "ThreadMessage" SET "runId" = NULL WHERE "runId" = ${runId}`));
  const deleted = await db.$executeRaw(planned(Prisma.sql`DELETE FROM "Run" WHERE id = ${runId} AND status NOT IN ${ACTIVE_RUN_STATUS_LIST}`));
  if (deleted === 0) return { refused: "NOT_FOUND" };
  return { deleted: { runId, workflowId: run.workflowId, version: run.versionNumber, status: run.status as DeletedRun["status"] } };
}

/** Repeats a bounded DELETE until it deletes nothing, letting other work reach the database between statements. */
async function deleteInBatches(db: PrismaClient, statement: Prisma.Sql): Promise<void> {
  for (;;) {
    const deleted = await db.$executeRaw(statement);
    if (deleted === 0) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** Finished runs created before `before`, oldest first, at most `limit` (the retention sweep's next pass). */
export async function finishedRunsBefore(db: PrismaClient, before: Date, limit = RETENTION_BATCH_RUNS): Promise<string[]> {
  const rows = await db.run.findMany({
    where: { status: { notIn: [...ACTIVE_RUN_STATUSES] }, createdAt: { lt: before } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true },
    take: limit,
  });
  return rows.map((row) => row.id);
}
