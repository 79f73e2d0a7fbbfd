import type { RunEvent } from "@weft/engine";
import type { PrismaClient } from "../../generated/prisma/client.js";
import type { Logger } from "../../logger.js";
import { ALL_RUNS, type EventBus, type RunEventMessage, type RunStatusValue } from "../../pubsub.js";
import { terminateRun, type TerminatedRun, type Termination } from "./run-termination.js";

/**
 * How a run ends. A run ends one of two ways, and each end is published and logged exactly once:
 *
 * - its executor ends it: the engine's terminal event (RUN_COMPLETED, RUN_FAILED, RUN_CANCELLED) is
 *   stored with the run's final status and published by the run's recorder, and the worker logs it
 *   (logRunEnd);
 * - it is ended from outside its executor: cancelled by a client, interrupted by a server that stopped,
 *   failed because its worker could not execute it or ran out of attempts. endRun is the one way: the
 *   final status and the closing events in one transaction (terminateRun), then the events published in
 *   seq order, the status change published, and the log line.
 *
 * A run WAITING for a person ends through endRun as well: terminateRun ends any active run
 * (ACTIVE_RUN_STATUSES), closes the events of any run that had started and cancels its open tasks.
 */

export type { Termination } from "./run-termination.js";

export interface RunEndingDeps {
  db: PrismaClient;
  bus: EventBus;
  logger: Logger;
  /**
   * The process's metrics and traces, which see the closing events as they see the engine's: a run
   * ended here counts in weft_runs_ended_total, and the trace span of a run that failed on its worker ends.
   */
  observe?: ((event: RunEvent) => void) | undefined;
}

/** A run's final status. */
export type FinalRunStatus = Exclude<RunStatusValue, "QUEUED" | "RUNNING">;

/** What the log line of a run's end says. */
export interface RunEnd {
  runId: string;
  workflowId: string;
  status: FinalRunStatus;
  /** The run's error as stored ({code, message}), or null. */
  error: unknown;
  startedAt: Date | null;
  finishedAt: Date | null;
  totalTokens: number;
}

/**
 * Ends a run from outside its executor (see above). `owner`: only if this attempt still holds the run
 * (a worker ending its own execution). Null when the run had already ended, or another attempt holds
 * it: whoever ended it (or ends it) published and logged that.
 */
export async function endRun(deps: RunEndingDeps, runId: string, termination: Termination, owner: { attempt: number } | null = null): Promise<TerminatedRun | null> {
  const ended = await terminateRun(deps.db, runId, termination, owner);
  if (!ended) return null;
  for (const message of ended.messages) await deps.bus.publish("runEvents", runId, message);
  const terminal: RunEventMessage = ended.messages.at(-1)!;
  for (const taskId of ended.cancelledTaskIds) {
    await deps.bus.publish("humanTasks", ALL_RUNS, { taskId, runId, workflowId: ended.workflowId, status: "CANCELLED", at: terminal.at });
  }
  await deps.bus.publish("runStatus", ALL_RUNS, { runId, workflowId: ended.workflowId, version: ended.version, status: ended.status, at: terminal.at });
  if (deps.observe) for (const message of ended.messages) deps.observe(eventOf(message));
  logRunEnd(deps.logger, ended);
  return ended;
}

/** A closing event as the engine would have emitted it (the message carries its payload apart). */
function eventOf({ payload, nodeId, ...event }: RunEventMessage): RunEvent {
  return { ...payload, ...event, ...(nodeId === null ? {} : { nodeId }) } as RunEvent;
}

/** The one log line of a run's end: operators follow runs in the service's logs without a client. */
export function logRunEnd(logger: Logger, run: RunEnd): void {
  const durationMs = run.startedAt && run.finishedAt ? run.finishedAt.getTime() - run.startedAt.getTime() : null;
  const errorCode = (run.error as { code?: unknown } | null)?.code;
  const fields = {
    runId: run.runId,
    workflowId: run.workflowId,
    status: run.status,
    durationMs,
    totalTokens: run.totalTokens,
    ...(typeof errorCode === "string" ? { errorCode } : {}),
  };
  if (run.status === "FAILED") logger.warn(fields, "run failed");
  else logger.info(fields, run.status === "COMPLETED" ? "run completed" : "run cancelled");
}
