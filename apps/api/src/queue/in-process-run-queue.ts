import type { Logger } from "../logger.js";
import type { CancelResult, RunQueue, RunQueueStats, RunWorker } from "./run-queue.js";

/** The RUN_CANCELLED reason of runs still executing when the server closes. */
export const SHUTDOWN_REASON = "the server is shutting down";

/** How long cancel waits for an aborted run to record its end before answering anyway. */
const CANCEL_WAIT_MS = 10_000;

/**
 * When a worker throws (the run could not be claimed, read or ended: the database failed under it), the
 * job is tried again after each of these delays in turn. A try is a new attempt of the run: it resumes
 * after the events already stored, or does nothing if the run has ended meanwhile.
 */
export const RETRY_DELAYS_MS: readonly number[] = [1_000, 5_000, 25_000];

/**
 * Runs jobs in this process, first in first out, at most `concurrency` at a time. A job whose worker
 * threw is tried again later (retryDelaysMs); after the last try the run is left as it is, and the next
 * start of the server ends it (RUN_INTERRUPTED), as it does the runs of a process that stopped.
 */
export class InProcessRunQueue implements RunQueue {
  readonly #worker: RunWorker;
  readonly #concurrency: number;
  readonly #logger: Logger;
  readonly #retryDelaysMs: readonly number[];
  readonly #waiting: string[] = [];
  readonly #running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  /** Jobs waiting to be tried again, and how many times each one's worker has thrown so far. */
  readonly #retrying = new Map<string, NodeJS.Timeout>();
  readonly #failures = new Map<string, number>();
  #closed = false;

  constructor(options: { worker: RunWorker; concurrency: number; logger: Logger; retryDelaysMs?: readonly number[] }) {
    this.#worker = options.worker;
    this.#concurrency = options.concurrency;
    this.#logger = options.logger;
    this.#retryDelaysMs = options.retryDelaysMs ?? RETRY_DELAYS_MS;
  }

  enqueue(runId: string): void {
    if (this.#closed) throw new Error("the run queue is closed");
    this.#waiting.push(runId);
    this.#startNext();
  }

  enqueueAgain(runId: string): void {
    // #startNext leaves a run waiting while its previous job still runs.
    this.enqueue(runId);
  }

  async cancel(runId: string, reason: string): Promise<CancelResult> {
    const at = this.#waiting.indexOf(runId);
    const retry = this.#retrying.get(runId);
    if (at !== -1 || retry) {
      if (at !== -1) this.#waiting.splice(at, 1);
      clearTimeout(retry);
      this.#retrying.delete(runId);
      this.#failures.delete(runId);
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

  /** One process executes every run: another worker that held a run was an earlier process, which has stopped. */
  workerAlive(): Promise<boolean> {
    return Promise.resolve(false);
  }

  stats(): RunQueueStats {
    return { queued: this.#waiting.length + this.#retrying.size, running: this.#running.size };
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#waiting.length = 0;
    for (const timer of this.#retrying.values()) clearTimeout(timer);
    this.#retrying.clear();
    const running = [...this.#running.values()];
    for (const job of running) job.controller.abort(SHUTDOWN_REASON);
    await Promise.allSettled(running.map((job) => job.done));
  }

  #startNext(): void {
    while (!this.#closed && this.#running.size < this.#concurrency) {
      // A run's job waits while an earlier job of the same run still runs (enqueueAgain).
      const at = this.#waiting.findIndex((candidate) => !this.#running.has(candidate));
      if (at < 0) return;
      const runId = this.#waiting.splice(at, 1)[0]!;
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
      this.#failures.delete(runId);
    } catch (error) {
      this.#failed(runId, signal, error);
    } finally {
      this.#running.delete(runId);
      this.#startNext();
    }
  }

  #failed(runId: string, signal: AbortSignal, error: unknown): void {
    const failures = (this.#failures.get(runId) ?? 0) + 1;
    const delay = this.#retryDelaysMs[failures - 1];
    if (delay === undefined || this.#closed || signal.aborted) {
      this.#failures.delete(runId);
      this.#logger.error({ err: error, runId, tries: failures }, "run worker failed; the run stays as it is until the server starts again");
      return;
    }
    this.#failures.set(runId, failures);
    this.#logger.warn({ err: error, runId, retryInMs: delay }, "run worker failed; the job is tried again");
    const timer = setTimeout(() => {
      this.#retrying.delete(runId);
      this.#waiting.push(runId);
      this.#startNext();
    }, delay);
    this.#retrying.set(runId, timer);
  }
}
