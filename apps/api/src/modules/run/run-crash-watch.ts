import type { NodeTypeRegistry } from "@weft/engine";
import type { PrismaClient } from "../../generated/prisma/client.js";
import type { Logger } from "../../logger.js";
import { afterCrashes, inFlight, readCrashWatch, type CrashWatch, type StoredEvent } from "./crash-suspects.js";
import { storeCrashSuspects, WORKER_ID, type RunClaim } from "./run-claim.js";

/** An event an earlier attempt stored, as read back for the resume and the crash watch. */
export interface StoredEventRow {
  type: string;
  nodeKey: string | null;
  payload: unknown;
  at: Date;
}

/** What the run's earlier attempts stored, read once for both the resume and the crash watch. */
export function readStoredEvents(db: Pick<PrismaClient, "runEvent">, runId: string, lastSeq: number): Promise<StoredEventRow[]> {
  return db.runEvent.findMany({ where: { runId, seq: { lte: lastSeq } }, orderBy: { seq: "asc" }, select: { type: true, nodeKey: true, payload: true, at: true } });
}

export type CrashJudgement =
  /**
   * Execute the run. `careful`: it has crashed a worker before, so each node's start is stored before
   * the node works (a crash inside it leaves the record). `alone`: something it was executing was in
   * flight at its last crash, so its nodes execute alone in this process — if it is the one that kills
   * its worker, no other run is in flight to be counted with it, and if another run is, it is not.
   */
  | { kind: "execute"; watch: CrashWatch; careful: boolean; alone: boolean }
  /** WEFT_RUN_MAX_ATTEMPTS crashes with the same invocation in flight: the run ends RUN_ATTEMPTS_EXHAUSTED. */
  | { kind: "exhausted"; watch: CrashWatch }
  /** A later attempt claimed the run meanwhile (or it ended): this worker stops. */
  | { kind: "fenced" };

export interface CrashWatchDeps {
  db: PrismaClient;
  registry: NodeTypeRegistry;
  logger: Logger;
  /** WEFT_RUN_MAX_ATTEMPTS. */
  maxAttempts: number;
  /**
   * Whether the worker process that held the run before is still alive (the run queue knows its
   * workers): a run taken over from a live worker was not crashed, whatever it had in flight.
   */
  workerAlive: (workerId: string) => Promise<boolean>;
}

/**
 * Looks at the crashes a claim finds (SPEC-V3 §1, crash-suspects.ts): what the attempt before was
 * executing when its worker died, from the stored events; the new watch is stored (for the next claim)
 * before anything executes.
 */
export async function judgeCrashes(deps: CrashWatchDeps, runId: string, claim: RunClaim, events: readonly StoredEventRow[]): Promise<CrashJudgement> {
  const crashesSoFar = claim.attempt - 1 - claim.handovers;
  const previous = readCrashWatch(claim.crashSuspects);
  const isComposite = (type: string) => deps.registry.get(type)?.body !== undefined;
  const stored: StoredEvent[] = events.map((row) => ({ type: row.type, nodeId: row.nodeKey, payload: (row.payload ?? {}) as Record<string, unknown> }));
  const alive = crashesSoFar > previous.examined && (await lastWorkerAlive(deps, claim.previousWorker));
  const watch = afterCrashes(previous, crashesSoFar, inFlight(stored, isComposite), alive);
  if (watch !== previous) {
    if (!(await storeCrashSuspects(deps.db, runId, claim.attempt, watch))) return { kind: "fenced" };
    if (alive) deps.logger.warn({ runId, attempt: claim.attempt, previousWorker: claim.previousWorker }, "the run was taken over from a worker that is still alive (its lock lapsed): not counted as a crash");
    else deps.logger.warn({ runId, attempt: claim.attempt, crashes: watch.crashes, suspects: watch.suspects }, "the run's worker stopped; what it was executing is noted");
  }
  if (watch.crashes >= deps.maxAttempts) return { kind: "exhausted", watch };
  return { kind: "execute", watch, careful: crashesSoFar > 0, alone: watch.suspects.length > 0 };
}

/** This very process is alive; another is asked of the queue (a failed question counts it dead: the rule as without the check). */
async function lastWorkerAlive(deps: CrashWatchDeps, workerId: string | null): Promise<boolean> {
  if (workerId === null) return false;
  if (workerId === WORKER_ID) return true;
  try {
    return await deps.workerAlive(workerId);
  } catch (error) {
    deps.logger.warn({ workerId, err: { message: (error as Error).message } }, "could not tell whether the run's last worker is alive; its stop counts as a crash");
    return false;
  }
}
