import {
  threadQuestion,
  threadStateOf,
  turnMessages,
  type JsonValue,
  type NodeTypeRegistry,
  type PreparedRun,
  type RunEvent,
  type RunEventHandler,
  type ThreadHistory,
  type ThreadMessage,
  type ThreadRetention,
} from "@weft/engine";
import type { Prisma, PrismaClient } from "../../generated/prisma/client.js";
import { failure, success, type Outcome } from "../../errors/outcome.js";
import { userError } from "../../errors/user-error.type.js";
import { isUuid } from "../common/uuid.js";
import { retainedMessagesWhere } from "./thread-retention.js";
import { ACTIVE_RUN_STATUSES } from "../common/run-status.js";

/**
 * A thread around a run (SPEC-V2 §7), for the run module: before it starts, the thread is claimed (one
 * run at a time: a second is refused with THREAD_BUSY); while it runs, `history` nodes read the thread;
 * when it completes, its turn (question and answer) and its thread channels are stored, before its
 * terminal event is — so a client that sees RUN_COMPLETED finds the thread free and up to date.
 */


export interface ClaimedThread {
  threadId: string;
  /** The thread channels' values to start the run with. */
  state: Record<string, JsonValue>;
}

/**
 * Inside the transaction that stores the run: locks the thread's row (so two starts on one thread are
 * decided one after the other), refuses a thread of another workflow or with an active run, and hands
 * back its state. With no id, creates a thread for the workflow.
 */
export async function claimThread(tx: Prisma.TransactionClient, workflowId: string, threadId: string | null): Promise<Outcome<ClaimedThread>> {
  if (threadId === null) {
    const created = await tx.thread.create({ data: { workflowId }, select: { id: true } });
    return success({ threadId: created.id, state: {} });
  }
  const path = ["input", "threadId"];
  if (!isUuid(threadId)) return failure(userError("NOT_FOUND", `thread "${threadId}" does not exist`, { path }));
  const locked = await tx.$queryRaw<{ workflowId: string; state: Record<string, JsonValue> }[]>`
    SELECT "workflowId", state FROM "Thread" WHERE id = ${threadId} FOR UPDATE`;
  const thread = locked[0];
  if (!thread) return failure(userError("NOT_FOUND", `thread "${threadId}" does not exist`, { path }));
  if (thread.workflowId !== workflowId) {
    return failure(userError("VALIDATION_FAILED", `thread "${threadId}" belongs to another workflow`, { path }));
  }
  const active = await tx.run.findFirst({ where: { threadId, status: { in: [...ACTIVE_RUN_STATUSES] } }, select: { id: true } });
  if (active) {
    return failure(userError("THREAD_BUSY", `thread "${threadId}" has a run in progress (${active.id}); start the next turn when it has ended`, { path }));
  }
  return success({ threadId, state: thread.state });
}

export interface CompletedTurn {
  threadId: string;
  runId: string;
  /** The attempt executing the run: a worker that lost the run to a later attempt records nothing. */
  attempt: number;
  question: string;
  answer: string;
  /** The run's final thread channels. */
  state: Record<string, JsonValue>;
}

/** Appends a completed run's two messages, keeps its thread channels and applies retention, in one transaction. */
export async function recordTurn(db: PrismaClient, turn: CompletedTurn, retention: ThreadRetention, now = new Date()): Promise<void> {
  await db.$transaction(async (tx) => {
    const held = await tx.run.count({ where: { id: turn.runId, attempt: turn.attempt, status: "RUNNING" } });
    if (held === 0) return;
    const locked = await tx.$queryRaw<{ lastSeq: number }[]>`SELECT "lastSeq" FROM "Thread" WHERE id = ${turn.threadId} FOR UPDATE`;
    // A thread deleted while its run ran keeps nothing.
    if (locked.length === 0) return;
    const first = locked[0]!.lastSeq + 1;
    const messages = turnMessages({ runId: turn.runId, question: turn.question, answer: turn.answer, at: now });
    await tx.threadMessage.createMany({
      data: messages.map((message, i) => ({
        threadId: turn.threadId,
        seq: first + i,
        role: message.role === "user" ? "USER" : "ASSISTANT",
        content: message.content,
        runId: turn.runId,
        createdAt: now,
      })),
    });
    const lastSeq = first + messages.length - 1;
    await tx.thread.update({ where: { id: turn.threadId }, data: { lastSeq, state: turn.state as Prisma.InputJsonObject, updatedAt: now } });
    const expired: Prisma.ThreadMessageWhereInput[] = [];
    if (retention.maxMessages !== null) expired.push({ seq: { lte: lastSeq - retention.maxMessages } });
    if (retention.maxAgeSeconds !== null) expired.push({ createdAt: { lt: new Date(now.getTime() - retention.maxAgeSeconds * 1000) } });
    if (expired.length > 0) await tx.threadMessage.deleteMany({ where: { threadId: turn.threadId, OR: expired } });
  });
}

/** What a run's `history` nodes read: the thread's newest messages that retention keeps. */
export class DatabaseThreadHistory implements ThreadHistory {
  constructor(
    private readonly db: PrismaClient,
    private readonly threadId: string,
    private readonly retention: ThreadRetention,
  ) {}

  async recentMessages(limit: number, signal: AbortSignal): Promise<ThreadMessage[]> {
    signal.throwIfAborted();
    const rows = await this.db.threadMessage.findMany({
      where: retainedMessagesWhere(this.threadId, this.retention, new Date()),
      orderBy: { seq: "desc" },
      take: limit,
    });
    return rows.reverse().map((row) => ({
      role: row.role === "USER" ? "user" : "assistant",
      content: row.content,
      createdAt: row.createdAt.toISOString(),
      runId: row.runId,
    }));
  }
}

export interface ThreadRun {
  db: PrismaClient;
  registry: NodeTypeRegistry;
  retention: ThreadRetention;
  threadId: string;
  runId: string;
  attempt: number;
  prepared: PreparedRun;
}

/**
 * The run's event handler with its thread's turn recorded just before RUN_COMPLETED is: the question,
 * the result and the final thread channels. A failed or cancelled run adds nothing to its thread.
 */
export function recordingTurn(run: ThreadRun, onEvent: RunEventHandler): RunEventHandler {
  return (event: RunEvent) => {
    if (event.type !== "RUN_COMPLETED") return onEvent(event);
    const turn = {
      threadId: run.threadId,
      runId: run.runId,
      attempt: run.attempt,
      question: threadQuestion(run.prepared, run.registry),
      answer: event.result ?? "",
      state: threadStateOf(event.state, run.prepared.workflow),
    };
    return recordTurn(run.db, turn, run.retention).then(() => onEvent(event));
  };
}
