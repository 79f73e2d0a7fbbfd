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

/**
 * Expires an OPEN task whose time has come (`now` ≥ expiresAt): it takes the node's onTimeout action
 * (null: the node fails with HUMAN_TIMEOUT). The same conditional update as a completion, so an expiry
 * fires once however many timers or processes try.
 */
export async function expireOpenTask(db: PrismaClient, taskId: string, now: Date): Promise<HumanTaskRow | null> {
  const task = await db.humanTask.findUnique({ where: { id: taskId }, select: { onTimeout: true } });
  if (!task) return null;
  const closed = await db.humanTask.updateMany({
    where: { id: taskId, status: "OPEN", expiresAt: { lte: now } },
    data: { status: "EXPIRED", action: task.onTimeout, completedAt: now },
  });
  return closed.count === 1 ? db.humanTask.findUnique({ where: { id: taskId } }) : null;
}
