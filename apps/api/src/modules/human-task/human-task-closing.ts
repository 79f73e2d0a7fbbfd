import type { JsonValue } from "@weft/engine";
import type { HumanTask as HumanTaskRow, PrismaClient } from "../../generated/prisma/client.js";

/** How a person closes a task: checked against it first (checkHumanAnswer). */
export interface Completion {
  action: string;
  data: JsonValue;
  comment: string | null;
  by: string;
  at: Date;
}

/**
 * Completes an OPEN task: one conditional update, so of two completions (or a completion and an expiry)
 * at once exactly one closes it; the task as closed, or null when it was not open any more.
 */
export async function completeOpenTask(db: PrismaClient, taskId: string, completion: Completion): Promise<HumanTaskRow | null> {
  const closed = await db.humanTask.updateMany({
    where: { id: taskId, status: "OPEN" },
    data: {
      status: "COMPLETED",
      action: completion.action,
      data: completion.data === null ? undefined : (completion.data as object),
      comment: completion.comment,
      completedBy: completion.by,
      completedAt: completion.at,
    },
  });
  return closed.count === 1 ? db.humanTask.findUnique({ where: { id: taskId } }) : null;
}

/** What a timer's turn found: the task it expired, the time an open task not yet due is due, or nothing to do. */
export type Expiry = { expired: HumanTaskRow } | { dueAt: Date } | null;

/**
 * Expires an OPEN task whose time has come (`now` ≥ expiresAt): it takes the node's onTimeout action
 * (null: the node fails with HUMAN_TIMEOUT). The same conditional update as a completion, so an expiry
 * fires once however many timers or processes try. A task still open and not yet due (a timer that
 * fired early) answers when it is due, from the same first read.
 */
export async function expireOpenTask(db: PrismaClient, taskId: string, now: Date): Promise<Expiry> {
  const task = await db.humanTask.findUnique({ where: { id: taskId }, select: { status: true, expiresAt: true, onTimeout: true } });
  if (!task || task.status !== "OPEN" || task.expiresAt === null) return null;
  if (task.expiresAt > now) return { dueAt: task.expiresAt };
  const closed = await db.humanTask.updateMany({
    where: { id: taskId, status: "OPEN", expiresAt: { lte: now } },
    data: { status: "EXPIRED", action: task.onTimeout, completedAt: now },
  });
  const expired = closed.count === 1 ? await db.humanTask.findUnique({ where: { id: taskId } }) : null;
  return expired && { expired };
}
