import { Prisma, type PrismaClient } from "../../generated/prisma/client.js";
import { planned } from "../../db/planned.js";
import { statusCheck } from "../../db/status-check.js";

/** How an execution that ended WAITING left its run. */
export type Parking = "parked" | "answered" | "gone";

/**
 * Parks a run whose execution ended WAITING (SPEC-V3 §2): RUNNING → WAITING, no worker named, counted as
 * a handover (not a failed attempt) — in one statement that also checks no task of the run was closed
 * without this execution having its answer (`applied`). A task completed meanwhile therefore either
 * reaches this check (`answered`: the run must go on at once) or finds the run WAITING and continues it
 * (continueWaitingRun): never neither. `gone`: the run ended or another attempt holds it.
 */
export async function parkRun(db: PrismaClient, runId: string, attempt: number, applied: readonly string[]): Promise<Parking> {
  const parked = await db.$queryRaw<{ id: string }[]>(
    planned(Prisma.sql`
      UPDATE "Run" SET status = 'WAITING', handovers = handovers + 1, "claimedBy" = NULL
       WHERE id = ${runId} AND attempt = ${attempt}::int AND ${statusCheck("status", ["RUNNING"])}
         AND NOT EXISTS (SELECT 1 FROM "HumanTask" t WHERE t."runId" = ${runId} AND ${statusCheck("t.status", ["COMPLETED", "EXPIRED"])} AND NOT (t.id = ANY(${[...applied]}::text[])))
      RETURNING id`),
  );
  if (parked.length > 0) return "parked";
  const run = await db.run.findUnique({ where: { id: runId }, select: { status: true, attempt: true } });
  return run?.status === "RUNNING" && run.attempt === attempt ? "answered" : "gone";
}

/**
 * A closed task's run, if it was WAITING, goes back to RUNNING for a worker to continue (one statement:
 * of two closings at once, one flips it). Null when it was not waiting: the execution holding it takes
 * the answer live (LiveAnswers), or its parking finds it (parkRun).
 */
export async function continueWaitingRun(db: PrismaClient, runId: string): Promise<{ workflowId: string; versionNumber: number | null } | null> {
  const rows = await db.$queryRaw<{ workflowId: string; versionNumber: number | null }[]>(
    planned(Prisma.sql`UPDATE "Run" SET status = 'RUNNING' WHERE id = ${runId} AND ${statusCheck("status", ["WAITING"])} RETURNING "workflowId", "versionNumber"`),
  );
  return rows[0] ?? null;
}
