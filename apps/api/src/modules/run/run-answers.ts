import { HumanTaskAnswers, type HumanTaskAnswer, type JsonValue } from "@weft/engine";
import type { PrismaClient } from "../../generated/prisma/client.js";
import type { Logger } from "../../logger.js";
import { ALL_RUNS, type EventBus, type Unsubscribe } from "../../pubsub.js";

/** A closed task as the engine takes its answer (an expiry's action is the node's onTimeout, resolved by the engine). */
interface ClosedTaskRow {
  id: string;
  status: string;
  action: string | null;
  data: unknown;
  comment: string | null;
  completedBy: string | null;
  completedAt: Date | null;
}

const CLOSED_TASK_FIELDS = { id: true, status: true, action: true, data: true, comment: true, completedBy: true, completedAt: true } as const;

export function answerOf(row: ClosedTaskRow): HumanTaskAnswer {
  const expired = row.status === "EXPIRED";
  return {
    action: expired ? null : row.action,
    data: (row.data ?? null) as JsonValue,
    comment: row.comment,
    by: expired ? null : row.completedBy,
    completedAt: (row.completedAt ?? new Date()).toISOString(),
    expired,
  };
}

/** The answers of a run's tasks closed so far (completed or expired), for an execution that continues it. */
export async function closedTaskAnswers(db: PrismaClient, runId: string): Promise<HumanTaskAnswers> {
  const rows = await db.humanTask.findMany({ where: { runId, status: { in: ["COMPLETED", "EXPIRED"] } }, select: CLOSED_TASK_FIELDS });
  return new HumanTaskAnswers(rows.map((row) => [row.id, answerOf(row)] as const));
}

/**
 * Answers reaching the runs this process executes while they execute (SPEC-V3 §2: a task completed while
 * other branches still run is taken at once, not after the run waits). One subscription per process to
 * the `humanTasks` messages; a closed task of an attached run is read and given to its execution.
 */
export class LiveAnswers {
  readonly #runs = new Map<string, HumanTaskAnswers>();
  #unsubscribe: Promise<Unsubscribe> | null = null;

  constructor(
    private readonly db: PrismaClient,
    private readonly bus: EventBus,
    private readonly logger: Logger,
  ) {}

  /** Gives the run's execution the answers closed from now on; returns how to stop. */
  async attach(runId: string, answers: HumanTaskAnswers): Promise<() => void> {
    this.#unsubscribe ??= this.bus.subscribe("humanTasks", ALL_RUNS, (message) => {
      if (message.status !== "COMPLETED" && message.status !== "EXPIRED") return;
      const target = this.#runs.get(message.runId);
      if (target && target.get(message.taskId) === undefined) void this.#deliver(target, message.taskId);
    });
    await this.#unsubscribe;
    this.#runs.set(runId, answers);
    return () => {
      if (this.#runs.get(runId) === answers) this.#runs.delete(runId);
    };
  }

  async #deliver(answers: HumanTaskAnswers, taskId: string): Promise<void> {
    try {
      const row = await this.db.humanTask.findUnique({ where: { id: taskId }, select: CLOSED_TASK_FIELDS });
      if (row && (row.status === "COMPLETED" || row.status === "EXPIRED")) answers.give(taskId, answerOf(row));
    } catch (error) {
      // The execution waits as it would without this message: its run is continued from the database.
      this.logger.warn({ err: error, taskId }, "a closed task's answer could not be read for the run executing here");
    }
  }

  async close(): Promise<void> {
    const unsubscribe = await this.#unsubscribe;
    unsubscribe?.();
    this.#runs.clear();
  }
}
