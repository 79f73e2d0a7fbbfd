import type { Prisma, PrismaClient } from "../../generated/prisma/client.js";
import type { RunEventMessage } from "../../pubsub.js";
import { ACTIVE_RUN_STATUSES } from "../workflow/index.js";

export type Termination =
  | { kind: "cancelled"; reason: string }
  | { kind: "failed"; code: string; message: string };

export interface TerminatedRun {
  workflowId: string;
  status: "FAILED" | "CANCELLED";
  message: RunEventMessage;
}

/**
 * Ends a run the executor is not driving (cancelled while QUEUED, left active by a crash, or whose
 * executor could not start): in one transaction, only if it is still active, marks it finished, clears
 * its lock, settles its unfinished node runs and appends the terminal event with the next seq, so
 * every runEvents stream ends. Returns null when the run had already finished.
 */
export async function terminateRun(db: PrismaClient, runId: string, termination: Termination): Promise<TerminatedRun | null> {
  const status = termination.kind === "cancelled" ? "CANCELLED" : "FAILED";
  const error =
    termination.kind === "cancelled"
      ? { code: "RUN_CANCELLED", message: termination.reason }
      : { code: termination.code, message: termination.message };
  const now = new Date();
  return db.$transaction(async (tx) => {
    const updated = await tx.run.updateMany({
      where: { id: runId, status: { in: [...ACTIVE_RUN_STATUSES] } },
      data: { status, finishedAt: now, activeLock: null, error, lastSeq: { increment: 1 } },
    });
    if (updated.count === 0) return null;
    const run = await tx.run.findUniqueOrThrow({ where: { id: runId } });
    await settleNodeRuns(tx, runId, termination.kind === "cancelled" ? "RUN_CANCELLED" : error.code, error.message);
    const usage = { promptTokens: run.promptTokens, completionTokens: run.completionTokens, totalTokens: run.totalTokens };
    const payload: Record<string, unknown> =
      termination.kind === "cancelled"
        ? { reason: termination.reason, outputs: {}, usage }
        : { error, failedNodeIds: [], outputs: {}, usage };
    const type = termination.kind === "cancelled" ? "RUN_CANCELLED" : "RUN_FAILED";
    await tx.runEvent.create({
      data: { runId, seq: run.lastSeq, type, nodeKey: null, payload: payload as Prisma.InputJsonObject, at: now },
    });
    const message: RunEventMessage = { runId, seq: run.lastSeq, type, at: now.toISOString(), nodeId: null, payload };
    return { workflowId: run.workflowId, status, message };
  });
}

async function settleNodeRuns(tx: Prisma.TransactionClient, runId: string, code: string, message: string): Promise<void> {
  const now = new Date();
  await tx.nodeRun.updateMany({
    where: { runId, status: "RUNNING" },
    data: { status: "FAILED", error: { code, message }, finishedAt: now },
  });
  await tx.nodeRun.updateMany({
    where: { runId, status: "PENDING" },
    data: { status: "SKIPPED", error: { code, message: `not run: ${message}` } },
  });
}
