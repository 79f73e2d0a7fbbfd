import type { Logger } from "../logger.js";
import type { CancelResult, RunQueue, RunQueueStats, RunWorker } from "./run-queue.js";

/** The RUN_CANCELLED reason of runs still executing when the server closes. */
export const SHUTDOWN_REASON = "the server is shutting down";

/** How long cancel waits for an aborted run to record its end before answering anyway. */
const CANCEL_WAIT_MS = 10_000;

/** Runs jobs in this process, first in first out, at most `concurrency` at a time. */
export class InProcessRunQueue implements RunQueue {
  readonly #worker: RunWorker;
  readonly #concurrency: number;
  readonly #logger: Logger;
  readonly #waiting: string[] = [];
  readonly #running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  #closed = false;

  constructor(options: { worker: RunWorker; concurrency: number; logger: Logger }) {
    this.#worker = options.worker;
    this.#concurrency = options.concurrency;
    this.#logger = options.logger;
  }

  enqueue(runId: string): void {
    if (this.#closed) throw new Error("the run queue is closed");
    this.#waiting.push(runId);
    this.#startNext();
  }

  async cancel(runId: string, reason: string): Promise<CancelResult> {
    const at = this.#waiting.indexOf(runId);
    if (at !== -1) {
      this.#waiting.splice(at, 1);
      return "dequeued";
    }
    const running = this.#running.get(runId);
    if (!running) return "unknown";
    // A string reason is what the engine reports in RUN_CANCELLED (an AbortError's message is not).
    running.controller.abort(reason);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, CANCEL_WAIT_MS)));
    await Promise.race([running.done, timeout]).finally(() => clearTimeout(timer));
    return "aborted";
  }

  stats(): RunQueueStats {
    return { queued: this.#waiting.length, running: this.#running.size };
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#waiting.length = 0;
    const running = [...this.#running.values()];
    for (const job of running) job.controller.abort(SHUTDOWN_REASON);
    await Promise.allSettled(running.map((job) => job.done));
  }

  #startNext(): void {
    while (!this.#closed && this.#running.size < this.#concurrency && this.#waiting.length > 0) {
      const runId = this.#waiting.shift()!;
      const controller = new AbortController();
      const done = this.#run(runId, controller.signal);
      this.#running.set(runId, { controller, done });
    }
  }

  async #run(runId: string, signal: AbortSignal): Promise<void> {
    // Yield first so `enqueue` returns before any of the job's work runs.
    await Promise.resolve();
    try {
      await this.#worker(runId, signal);
    } catch (error) {
      this.#logger.error({ err: error, runId }, "run worker failed");
    } finally {
      this.#running.delete(runId);
      this.#startNext();
    }
  }
}
