import { Prisma, type PrismaClient } from "../../generated/prisma/client.js";
import { planned } from "../../db/planned.js";
import { ACTIVE_RUN_STATUS_LIST } from "../common/run-status.js";
import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import { statusCheck } from "../../db/status-check.js";

/** The claimed row is found by its key (run.id, not only through `held`) and its status checked on it. */
const EXECUTING = statusCheck("run.status", ["QUEUED", "RUNNING"]);

/** This process, as claims name it: host, pid and a random part (pids repeat across containers). */
export const WORKER_ID = `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;

export interface RunClaim {
  /** 1 for the first execution, then one more for each resumption. */
  attempt: number;
  /** The run's status when claimed: QUEUED (nothing executed yet) or RUNNING (an earlier attempt started it). */
  status: "QUEUED" | "RUNNING";
  /** The last seq stored before this attempt. */
  lastSeq: number;
  /** Earlier attempts that ended by handing the run over (they do not count against the attempt limit). */
  handovers: number;
  /** Run.crashSuspects as stored (crash-suspects.ts reads it). */
  crashSuspects: unknown;
  /** The worker that held the run before this claim (WORKER_ID of its process); null after a handover or for a first claim. */
  previousWorker: string | null;
}

/**
 * Claims an active run for this worker: one statement, under the run's row lock, counts a new attempt
 * and says which worker held the run before (the crash rule asks whether that one is still alive).
 * Every event write names its attempt and is refused once a later attempt has claimed the run (see
 * run-event-sql.ts), so a worker that lost its job but is still running (a zombie) can neither store
 * nor publish. Returns null when the run has finished (or was cancelled) in the meantime.
 */
export async function claimRun(db: Pick<PrismaClient, "$queryRaw">, runId: string, workerId: string = WORKER_ID): Promise<RunClaim | null> {
  const rows = await db.$queryRaw<RunClaim[]>`
    UPDATE "Run" AS run SET attempt = run.attempt + 1, "claimedBy" = ${workerId}
      FROM (SELECT id, "claimedBy" FROM "Run" WHERE id = ${runId} FOR UPDATE) AS held
     WHERE run.id = ${runId} AND held.id = run.id AND ${EXECUTING}
    RETURNING run.attempt, run.status::text AS status, run."lastSeq", run.handovers, run."crashSuspects", held."claimedBy" AS "previousWorker"`;
  return rows[0] ?? null;
}

/**
 * A stopping worker gives its attempt back (graceful handover): the run stays active with everything
 * stored so far, counts one handover (not a failed attempt) and names no worker until the next claim.
 * False when a later attempt holds the run already, or it has ended.
 */
export async function releaseRun(db: Pick<PrismaClient, "$executeRaw">, runId: string, attempt: number): Promise<boolean> {
  const released = await db.$executeRaw`
    UPDATE "Run" SET handovers = handovers + 1, "claimedBy" = NULL
     WHERE id = ${runId} AND attempt = ${attempt} AND status IN ('QUEUED', 'RUNNING')`;
  return released === 1;
}

/** What the worker executes, returned by the claim itself (claimRunToExecute). */
export interface ClaimedRun {
  workflowId: string;
  versionNumber: number | null;
  editVersion: number | null;
  snapshot: unknown;
  request: unknown;
  threadId: string | null;
}

/**
 * claimRun that also returns what the worker executes, in the same statement: the row the claim
 * locks and updates is the one read, so no separate read comes before it.
 */
export async function claimRunToExecute(db: Pick<PrismaClient, "$queryRaw">, runId: string, workerId: string = WORKER_ID): Promise<{ claim: RunClaim; run: ClaimedRun } | null> {
  const rows = await db.$queryRaw<(RunClaim & ClaimedRun)[]>(
    planned(Prisma.sql`
      UPDATE "Run" AS run SET attempt = run.attempt + 1, "claimedBy" = ${workerId}
        FROM (SELECT id, "claimedBy" FROM "Run" WHERE id = ${runId} FOR UPDATE) AS held
       WHERE run.id = ${runId} AND held.id = run.id AND ${EXECUTING}
      RETURNING run.attempt, run.status::text AS status, run."lastSeq", run.handovers, run."crashSuspects", held."claimedBy" AS "previousWorker",
                run."workflowId", run."versionNumber", run."editVersion", run.snapshot, run.request, run."threadId"`),
  );
  const row = rows[0];
  if (!row) return null;
  const { attempt, status, lastSeq, handovers, crashSuspects, previousWorker, ...run } = row;
  return { claim: { attempt, status, lastSeq, handovers, crashSuspects, previousWorker }, run };
}

/**
 * Stores what this attempt found about the run's crashes (crash-suspects.ts), if it still holds the
 * run; false when a later attempt has claimed it or it has ended.
 */
export async function storeCrashSuspects(db: Pick<PrismaClient, "$executeRaw">, runId: string, attempt: number, watch: object): Promise<boolean> {
  const stored = await db.$executeRaw`
    UPDATE "Run" SET "crashSuspects" = ${JSON.stringify(watch)}::jsonb
     WHERE id = ${runId} AND attempt = ${attempt} AND status IN ${ACTIVE_RUN_STATUS_LIST}`;
  return stored === 1;
}
