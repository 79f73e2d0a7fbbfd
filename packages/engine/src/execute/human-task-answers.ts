import type { HumanTaskAnswer } from "../model/human-task.js";

type Listener = (answer: HumanTaskAnswer) => void;

/**
 * The answers a run's open tasks receive, by task id. The host fills it before the run (tasks closed
 * while the run was waiting) and gives answers as they arrive while it executes; the runner reads and
 * listens. Each task takes one answer: the first one given wins, later ones are ignored.
 */
export class HumanTaskAnswers {
  readonly #answers = new Map<string, HumanTaskAnswer>();
  readonly #listeners = new Map<string, Listener>();

  constructor(answers: Iterable<readonly [string, HumanTaskAnswer]> = []) {
    for (const [taskId, answer] of answers) this.#answers.set(taskId, answer);
  }

  /** Records the answer and hands it to the run waiting for it; false when the task had one already. */
  give(taskId: string, answer: HumanTaskAnswer): boolean {
    if (this.#answers.has(taskId)) return false;
    this.#answers.set(taskId, answer);
    const listener = this.#listeners.get(taskId);
    this.#listeners.delete(taskId);
    listener?.(answer);
    return true;
  }

  get(taskId: string): HumanTaskAnswer | undefined {
    return this.#answers.get(taskId);
  }

  /** Task ids with an answer. */
  answered(): string[] {
    return [...this.#answers.keys()];
  }

  /** Calls `listener` once, when the task is answered; returns how to stop listening. */
  listen(taskId: string, listener: Listener): () => void {
    this.#listeners.set(taskId, listener);
    return () => {
      if (this.#listeners.get(taskId) === listener) this.#listeners.delete(taskId);
    };
  }
}

/** Task ids the engine makes when the host gives none: unique within the run, the same on every attempt. */
export function defaultTaskId(runId: string, nodeId: string, invocation: string): string {
  return invocation === "" ? `${runId}/${nodeId}` : `${runId}/${nodeId}@${invocation}`;
}
