import { createHash } from "node:crypto";
import type { Logger } from "../../logger.js";
import { HumanTaskAnswers, type ResumeRecord, type RunEvent, type RunEventHandler } from "@weft/engine";
import type { PrismaClient } from "../../generated/prisma/client.js";
import { ALL_RUNS, type EventBus } from "../../pubsub.js";
import { closedTaskAnswers, type LiveAnswers } from "./run-answers.js";

/** What the run module asks of whoever keeps tasks' timeouts (the human-task module's timers). */
export interface TaskTimeouts {
  /** A task with a timeout was opened: it expires at `expiresAt` unless closed first. */
  opened(taskId: string, expiresAt: Date): void;
}

/**
 * A task's id: a name-based UUID (RFC 4122 version 5 layout over SHA-1) of the run, node and invocation,
 * so the invocation opens the same task on every attempt and storing it twice adds nothing.
 */
export function humanTaskId(runId: string, nodeId: string, invocation: string): string {
  const bytes = createHash("sha1").update(`weft.human-task\u0000${runId}\u0000${nodeId}\u0000${invocation}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface HumanStepDeps {
  db: PrismaClient;
  bus: EventBus;
  live: LiveAnswers;
  timeouts: TaskTimeouts | null;
  logger: Logger;
}

/**
 * The human steps of one execution of a run (SPEC-V3 §2): the answers it starts with (tasks closed
 * while the run waited: read only when its stored events show a task), the answers it takes live once it
 * has opened a task, each new task's timeout, and the tasks its end leaves open (closed with the run's
 * terminal event, announced here).
 */
export class ExecutionHumanSteps {
  readonly answers: HumanTaskAnswers;
  readonly #open: Set<string>;
  #detach: (() => void) | null = null;
  #ended = false;

  private constructor(
    private readonly deps: HumanStepDeps,
    private readonly run: { id: string; workflowId: string },
    answers: HumanTaskAnswers,
    open: Iterable<string>,
  ) {
    this.answers = answers;
    this.#open = new Set(open);
  }

  static async start(deps: HumanStepDeps, run: { id: string; workflowId: string }, record: ResumeRecord | null): Promise<ExecutionHumanSteps> {
    const waiting = [...(record?.waiting?.values() ?? [])].map((entry) => entry.taskId);
    const answers = waiting.length > 0 ? await closedTaskAnswers(deps.db, run.id) : new HumanTaskAnswers();
    const steps = new ExecutionHumanSteps(deps, run, answers, waiting);
    if (waiting.length > 0) await steps.#listen();
    return steps;
  }

  /** Every task id whose answer this execution had: what parking checks against the database. */
  get applied(): string[] {
    return this.answers.answered();
  }

  /** The engine's event handler, seeing each task opened or closed first. */
  handler(record: RunEventHandler): RunEventHandler {
    return (event: RunEvent) => {
      if (event.type === "NODE_WAITING") {
        this.#open.add(event.taskId);
        if (!this.#detach) this.#listen().catch((error: unknown) => this.#listenFailed(error));
        // The timeout is set once the task is stored (the event's record stores it), so a timer due at
        // once finds its task.
        const recorded = record(event);
        const expiresAt = event.expiresAt;
        if (expiresAt === null) return recorded;
        const timeouts = this.deps.timeouts;
        return Promise.resolve(recorded).then(() => timeouts?.opened(event.taskId, new Date(expiresAt)));
      }
      if (event.type === "HUMAN_TASK_COMPLETED") this.#open.delete(event.taskId);
      return record(event);
    };
  }

  /** Live answers could not be followed (the bus is away): parking the run still reads every answer from the database. */
  #listenFailed(error: unknown): void {
    this.#detach = null;
    this.deps.logger.warn({ err: error, runId: this.run.id }, "live answers to this run's tasks are not followed; the run parks and continues from the database");
  }

  /** The execution ended: no more live answers; a run that ended (not WAITING) announces the tasks its end closed. */
  async ended(runEnded: boolean): Promise<void> {
    this.#ended = true;
    this.#detach?.();
    this.#detach = null;
    if (!runEnded) return;
    const at = new Date().toISOString();
    for (const taskId of this.#open) {
      await this.deps.bus.publish("humanTasks", ALL_RUNS, { taskId, runId: this.run.id, workflowId: this.run.workflowId, status: "CANCELLED", at });
    }
  }

  async #listen(): Promise<void> {
    this.#detach = () => undefined;
    const detach = await this.deps.live.attach(this.run.id, this.answers);
    if (this.#ended) detach();
    else this.#detach = detach;
  }
}
