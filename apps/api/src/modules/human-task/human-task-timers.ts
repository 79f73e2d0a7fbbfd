import type { PrismaClient } from "../../generated/prisma/client.js";
import type { Logger } from "../../logger.js";

/**
 * Tasks' timeouts (SPEC-V3 §2). `expire` is called at or after a task's expiresAt; it closes the task
 * only if it is still open and due, so a timer that fires twice, early or in two processes is harmless.
 * Without Redis the timers live in this process and are restored from the database at start; with Redis
 * they are BullMQ delayed jobs (bull-human-task-timers.ts), kept by Redis across restarts and fired once
 * by any worker process.
 */
export interface HumanTaskTimers {
  schedule(taskId: string, expiresAt: Date): void;
  /** Schedules every open task with a timeout (at start); returns how many. */
  restore(): Promise<number>;
  close(): Promise<void>;
}

/**
 * Expires the task if it is open and due. Returns when it is due instead if it is still open but not yet
 * due — a timer that fired early (another process's clock, a rounded delay): the timer is set again.
 */
export type ExpireTask = (taskId: string) => Promise<Date | null>;

/** setTimeout takes at most 2^31 − 1 ms (about 24.8 days): longer waits are chained. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Open tasks with a timeout, read at start to schedule them again. */
export async function openTasksWithTimeouts(db: PrismaClient): Promise<{ id: string; expiresAt: Date }[]> {
  const rows = await db.humanTask.findMany({ where: { status: "OPEN", expiresAt: { not: null } }, select: { id: true, expiresAt: true } });
  return rows.map((row) => ({ id: row.id, expiresAt: row.expiresAt! }));
}

export class InProcessHumanTaskTimers implements HumanTaskTimers {
  readonly #timers = new Map<string, NodeJS.Timeout>();
  #closed = false;

  constructor(
    private readonly db: PrismaClient,
    private readonly expire: ExpireTask,
    private readonly logger: Logger,
  ) {}

  schedule(taskId: string, expiresAt: Date): void {
    if (this.#closed) return;
    clearTimeout(this.#timers.get(taskId));
    const wait = Math.max(0, expiresAt.getTime() - Date.now());
    const timer = setTimeout(() => {
      this.#timers.delete(taskId);
      if (wait > MAX_TIMER_MS) return this.schedule(taskId, expiresAt);
      this.expire(taskId).then(
        (due) => due && this.schedule(taskId, due),
        (error: unknown) => this.logger.error({ err: error, taskId }, "a task could not be expired; it is tried again at the next start"),
      );
    }, Math.min(wait, MAX_TIMER_MS));
    // A pending timeout never keeps the process alive: it is restored at the next start.
    timer.unref();
    this.#timers.set(taskId, timer);
  }

  async restore(): Promise<number> {
    const open = await openTasksWithTimeouts(this.db);
    for (const task of open) this.schedule(task.id, task.expiresAt);
    return open.length;
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
  }
}
