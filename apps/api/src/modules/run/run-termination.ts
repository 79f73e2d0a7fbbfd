import type { Prisma, PrismaClient, NodeRun as NodeRunRow } from "../../generated/prisma/client.js";
import type { RunEventMessage } from "../../pubsub.js";
import { ACTIVE_RUN_STATUS_LIST, ACTIVE_RUN_STATUSES } from "../common/run-status.js";

export type Termination =
  | { kind: "cancelled"; reason: string }
  | { kind: "failed"; code: string; message: string };

export interface TerminatedRun {
  runId: string;
  workflowId: string;
  version: number | null;
  status: "FAILED" | "CANCELLED";
  /** As stored on the run: the failure's code, or RUN_CANCELLED with the reason. */
  error: { code: string; message: string };
  startedAt: Date | null;
  finishedAt: Date;
  totalTokens: number;
  /** What was appended, in seq order: the closing node events, then the terminal event (last). */
  messages: RunEventMessage[];
  /** Tasks for people the run had left open, cancelled with it (SPEC-V3 §2). */
  cancelledTaskIds: string[];
}

/**
 * The database half of ending a run from outside its executor (run-ending.ts publishes and logs it).
 * Ends a run the executor is not driving (cancelled while QUEUED, left active by a crash, or whose
 * executor could not start): in one transaction, only if it is still active, marks it finished, clears
 * its lock, settles its node runs and, for a run that had started (RUNNING), closes its event log the
 * way the executor would have: a node that had started gets NODE_FAILED, a node that had not gets
 * NODE_SKIPPED (reason RUN_CANCELLED, or the failure's code, e.g. RUN_INTERRUPTED), each with the next
 * seq; then the terminal event. A client replaying
 * the events therefore sees every started node end, and every runEvents stream ends. Returns null when
 * the run had already finished.
 */
export async function terminateRun(
  db: PrismaClient,
  runId: string,
  termination: Termination,
  /** Only if this attempt still holds the run (a worker ending its own execution); absent: whoever holds it. */
  owner: { attempt: number } | null = null,
): Promise<TerminatedRun | null> {
  const status = termination.kind === "cancelled" ? "CANCELLED" : "FAILED";
  const error =
    termination.kind === "cancelled"
      ? { code: "RUN_CANCELLED", message: termination.reason }
      : { code: termination.code, message: termination.message };
  const now = new Date();
  return db.$transaction(async (tx) => {
    // The row lock keeps the seqs ours: an event write of the run (it updates the row too) waits.
    const locked = await tx.$queryRaw<{ lastSeq: number; status: string; attempt: number }[]>`
      SELECT "lastSeq", status::text AS status, attempt FROM "Run" WHERE id = ${runId} AND status IN ${ACTIVE_RUN_STATUS_LIST} FOR UPDATE`;
    if (locked.length === 0 || (owner && locked[0]!.attempt !== owner.attempt)) return null;
    // A run that never started (QUEUED) has no node events to close: its stream is just the terminal event.
    const started = locked[0]!.status !== "QUEUED";
    // Started nodes first (in the order they started), then the ones that never did.
    const unfinished = started ? await tx.nodeRun.findMany({ where: { runId, status: { in: ["RUNNING", "PENDING"] } } }) : [];
    const open = unfinished.sort(
      (a, b) =>
        Number(b.status === "RUNNING") - Number(a.status === "RUNNING") ||
        (a.startedAt?.getTime() ?? Infinity) - (b.startedAt?.getTime() ?? Infinity) ||
        a.nodeKey.localeCompare(b.nodeKey) ||
        a.invocation.localeCompare(b.invocation),
    );
    const firstSeq = locked[0]!.lastSeq + 1;
    const closing = open.map((nodeRun, index) => closingEvent(runId, firstSeq + index, nodeRun, error, termination.kind, now));
    const lastSeq = firstSeq + closing.length;
    const run = await tx.run.update({
      where: { id: runId, status: { in: [...ACTIVE_RUN_STATUSES] } },
      data: { status, finishedAt: now, error, lastSeq },
    });
    await settleNodeRuns(tx, runId, error.code, error.message, now);
    const cancelledTasks = await tx.$queryRaw<{ id: string }[]>`
      UPDATE "HumanTask" SET status = 'CANCELLED', "completedAt" = ${now} WHERE "runId" = ${runId} AND status = 'OPEN' RETURNING id`;
    const usage = { promptTokens: run.promptTokens, completionTokens: run.completionTokens, totalTokens: run.totalTokens };
    const totals = { usage, ...(run.costUsd === null ? {} : { costUsd: run.costUsd }) };
    const payload: Record<string, unknown> =
      termination.kind === "cancelled"
        ? { reason: termination.reason, outputs: {}, ...totals }
        : { error, failedNodeIds: open.filter((nodeRun) => nodeRun.status === "RUNNING").map((nodeRun) => nodeRun.nodeKey), outputs: {}, ...totals };
    const terminal: RunEventMessage = {
      runId,
      seq: lastSeq,
      type: termination.kind === "cancelled" ? "RUN_CANCELLED" : "RUN_FAILED",
      at: now.toISOString(),
      nodeId: null,
      payload,
    };
    const messages = [...closing, terminal];
    await tx.runEvent.createMany({
      data: messages.map((message) => ({
        runId,
        seq: message.seq,
        type: message.type,
        nodeKey: message.nodeId,
        payload: message.payload as Prisma.InputJsonObject,
        at: now,
      })),
    });
    return {
      runId,
      workflowId: run.workflowId,
      version: run.versionNumber,
      status,
      error,
      startedAt: run.startedAt,
      finishedAt: now,
      totalTokens: run.totalTokens,
      messages,
      cancelledTaskIds: cancelledTasks.map((task) => task.id),
    };
  });
}

/** NODE_FAILED for a node that had started, NODE_SKIPPED for one that had not; shaped as the executor's. */
function closingEvent(
  runId: string,
  seq: number,
  nodeRun: NodeRunRow,
  error: { code: string; message: string },
  kind: Termination["kind"],
  now: Date,
): RunEventMessage {
  const base = { runId, seq, at: now.toISOString(), nodeId: nodeRun.nodeKey };
  if (nodeRun.status === "RUNNING") {
    const usage = { promptTokens: nodeRun.promptTokens, completionTokens: nodeRun.completionTokens, totalTokens: nodeRun.totalTokens };
    const details = {
      provider: nodeRun.provider,
      model: nodeRun.model,
      usage,
      retries: nodeRun.retries,
      startedAt: nodeRun.startedAt?.toISOString() ?? null,
      finishedAt: now.toISOString(),
    };
    return { ...base, type: "NODE_FAILED", payload: { nodeId: nodeRun.nodeKey, error, details, invocation: nodeRun.invocation } };
  }
  const reason = kind === "cancelled" ? "RUN_CANCELLED" : error.code;
  return { ...base, type: "NODE_SKIPPED", payload: { nodeId: nodeRun.nodeKey, reason, blockedBy: null, invocation: nodeRun.invocation } };
}

async function settleNodeRuns(tx: Prisma.TransactionClient, runId: string, code: string, message: string, now: Date): Promise<void> {
  await tx.nodeRun.updateMany({
    where: { runId, status: "RUNNING" },
    data: { status: "FAILED", error: { code, message }, finishedAt: now },
  });
  await tx.nodeRun.updateMany({
    where: { runId, status: "PENDING" },
    data: { status: "SKIPPED", error: { code, message: `not run: ${message}` } },
  });
}
