import type { RunEventDraft } from "../events/run-event.js";
import type { HumanTaskAnswer, HumanTaskRequest } from "../model/human-task.js";
import { defaultTaskId, type HumanTaskAnswers } from "./human-task-answers.js";
import { invocationKey, type ResumeRecord, type WaitingInvocation } from "./run-resume.js";

/** What the waits need from the run (the runner implements it). */
export interface WaitHost {
  readonly runId: string;
  readonly finished: boolean;
  emit(event: RunEventDraft): void;
  now(): number;
  /** Whether nothing but parked invocations is left: no node running or queued. */
  idle(): boolean;
  /** Settles once the events emitted so far are handled; null when they are. */
  eventsPending(): Promise<void> | null;
  /** Ends the execution WAITING for these tasks. */
  pause(taskIds: string[]): void;
}

/** The waiting invocation: where it is, for its events, and how the runner parks it. */
export interface WaitingAt {
  nodeId: string;
  invocation: string;
  /** It no longer counts as working: its slot goes back, and the run may find nothing else can run. */
  park(): void;
  /** It works again: its answer arrived while the run executes. */
  unpark(): void;
}

/**
 * The open tasks of one execution of a run (SPEC-V3 §2). Reaching a `human` node opens its task —
 * NODE_WAITING, once per invocation over all attempts — and waits for the answer: one the host already
 * holds (given while the run was released) settles it at once; otherwise the invocation is parked (no
 * slot) until the host gives one. The runner ends the execution WAITING when only parked invocations
 * are left. Whatever closes a task is recorded as HUMAN_TASK_COMPLETED before the node goes on.
 */
export class HumanWaits {
  readonly #host: WaitHost;
  readonly #answers: HumanTaskAnswers;
  readonly #record: ResumeRecord | null;
  readonly #taskId: (nodeId: string, invocation: string) => string;
  /** Parked invocations by task id, with how to stop listening for their answer. */
  readonly #parked = new Map<string, () => void>();
  #checking = false;

  constructor(host: WaitHost, answers: HumanTaskAnswers, record: ResumeRecord | null, taskId: ((nodeId: string, invocation: string) => string) | null) {
    this.#host = host;
    this.#answers = answers;
    this.#record = record;
    this.#taskId = taskId ?? ((nodeId, invocation) => defaultTaskId(host.runId, nodeId, invocation));
  }

  /**
   * Pauses the execution once nothing but parked invocations is left and every event is handled.
   * Looked at a turn of the event loop later, so every continuation already promised (a map starting its
   * next item, a replayed node) has run first; called whenever an invocation parks or a node ends.
   */
  checkIdle(): void {
    if (this.#checking || this.#parked.size === 0 || this.#host.finished) return;
    this.#checking = true;
    setTimeout(() => {
      this.#checking = false;
      if (this.#host.finished || this.#parked.size === 0 || !this.#host.idle()) return;
      const pending = this.#host.eventsPending();
      if (pending) void pending.then(() => this.checkIdle());
      else this.#host.pause([...this.#parked.keys()]);
    }, 0);
  }

  /** An invocation whose task an earlier attempt had opened: it continues, without a second NODE_STARTED. */
  openedEarlier(nodeId: string, invocation: string): WaitingInvocation | null {
    return this.#record?.waiting?.get(invocationKey(nodeId, invocation)) ?? null;
  }

  /** Opens (or finds again) the invocation's task and settles with its answer. */
  wait(at: WaitingAt, request: HumanTaskRequest): Promise<HumanTaskAnswer> {
    const earlier = this.openedEarlier(at.nodeId, at.invocation);
    const taskId = earlier?.taskId ?? this.#taskId(at.nodeId, at.invocation);
    const opened = { taskId, openedAt: earlier?.openedAt ?? new Date(this.#host.now()).toISOString() };
    if (!earlier) this.#announce(at, taskId, request);
    const known = this.#answers.get(taskId) ?? this.#record?.answers?.get(taskId);
    if (known) return Promise.resolve(this.#closed(at, opened, known, request));
    return new Promise((resolve) => {
      at.park();
      const stop = this.#answers.listen(taskId, (answer) => {
        this.#parked.delete(taskId);
        if (this.#host.finished) return;
        at.unpark();
        resolve(this.#closed(at, opened, answer, request));
      });
      this.#parked.set(taskId, stop);
      this.checkIdle();
    });
  }

  /** The execution ends (waiting, cancelled, failed): later answers are the next execution's. */
  detach(): void {
    for (const stop of this.#parked.values()) stop();
    this.#parked.clear();
  }

  #announce(at: WaitingAt, taskId: string, request: HumanTaskRequest): void {
    const expiresAt = request.timeoutSeconds === null ? null : new Date(this.#host.now() + request.timeoutSeconds * 1000).toISOString();
    this.#host.emit({
      type: "NODE_WAITING",
      nodeId: at.nodeId,
      taskId,
      actions: request.actions,
      form: request.form,
      expiresAt,
      title: request.title,
      instructions: request.instructions,
      input: request.input,
      editable: request.editable,
      assignee: request.assignee,
      onTimeout: request.onTimeout,
      invocation: at.invocation,
    });
  }

  /** Records how the task was closed; an expiry takes the node's onTimeout action. */
  #closed(at: WaitingAt, task: { taskId: string; openedAt: string }, answer: HumanTaskAnswer, request: HumanTaskRequest): HumanTaskAnswer {
    const closed = answer.expired ? { ...answer, action: request.onTimeout } : answer;
    const { action, by, data, comment, completedAt, expired } = closed;
    const { taskId, openedAt } = task;
    this.#host.emit({ type: "HUMAN_TASK_COMPLETED", nodeId: at.nodeId, taskId, action, by, data, comment, completedAt, expired, openedAt, invocation: at.invocation });
    return closed;
  }
}
