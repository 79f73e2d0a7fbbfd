import type { Logger } from "../logger.js";
import type { IngestionQueue, IngestionWorker } from "./ingestion-queue.js";

interface Pass {
  controller: AbortController;
  done: Promise<void>;
}

/**
 * Runs ingestion passes in this process, at most `concurrency` knowledge bases at a time and never two
 * passes of one knowledge base at once (a second request while one runs queues exactly one more pass).
 */
export class InProcessIngestionQueue implements IngestionQueue {
  readonly #worker: IngestionWorker;
  readonly #concurrency: number;
  readonly #logger: Logger;
  readonly #waiting: string[] = [];
  /** Callers waiting for the next pass of a knowledge base to finish. */
  readonly #nextPassWaiters = new Map<string, Array<() => void>>();
  readonly #running = new Map<string, Pass>();
  #closed = false;

  constructor(options: { worker: IngestionWorker; concurrency: number; logger: Logger }) {
    this.#worker = options.worker;
    this.#concurrency = Math.max(1, options.concurrency);
    this.#logger = options.logger;
  }

  enqueue(knowledgeBaseId: string): Promise<void> {
    if (this.#closed) return Promise.resolve();
    const finished = new Promise<void>((resolve) => {
      const waiters = this.#nextPassWaiters.get(knowledgeBaseId) ?? [];
      waiters.push(resolve);
      this.#nextPassWaiters.set(knowledgeBaseId, waiters);
    });
    if (!this.#waiting.includes(knowledgeBaseId)) this.#waiting.push(knowledgeBaseId);
    this.#startNext();
    return finished;
  }

  async cancel(knowledgeBaseId: string, reason: string): Promise<void> {
    const at = this.#waiting.indexOf(knowledgeBaseId);
    if (at !== -1) this.#waiting.splice(at, 1);
    const running = this.#running.get(knowledgeBaseId);
    if (running) {
      running.controller.abort(reason);
      await running.done;
    }
    if (!this.#waiting.includes(knowledgeBaseId)) this.#release(knowledgeBaseId, this.#nextPassWaiters.get(knowledgeBaseId));
  }

  stats(): { queued: number; running: number } {
    return { queued: this.#waiting.length, running: this.#running.size };
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#waiting.length = 0;
    const running = [...this.#running.values()];
    for (const pass of running) pass.controller.abort("the server is shutting down");
    await Promise.allSettled(running.map((pass) => pass.done));
    for (const [knowledgeBaseId, waiters] of [...this.#nextPassWaiters]) this.#release(knowledgeBaseId, waiters);
  }

  #startNext(): void {
    for (let i = 0; !this.#closed && i < this.#waiting.length && this.#running.size < this.#concurrency; ) {
      const knowledgeBaseId = this.#waiting[i]!;
      if (this.#running.has(knowledgeBaseId)) {
        i += 1;
        continue;
      }
      this.#waiting.splice(i, 1);
      const waiters = this.#nextPassWaiters.get(knowledgeBaseId) ?? [];
      this.#nextPassWaiters.delete(knowledgeBaseId);
      const controller = new AbortController();
      const done = this.#run(knowledgeBaseId, controller.signal, waiters);
      this.#running.set(knowledgeBaseId, { controller, done });
    }
  }

  async #run(knowledgeBaseId: string, signal: AbortSignal, waiters: Array<() => void>): Promise<void> {
    // Yield first so `enqueue` returns before any of the pass's work runs.
    await Promise.resolve();
    try {
      await this.#worker(knowledgeBaseId, signal);
    } catch (error) {
      this.#logger.error({ err: error, knowledgeBaseId }, "ingestion pass failed");
    } finally {
      this.#running.delete(knowledgeBaseId);
      for (const resolve of waiters) resolve();
      this.#startNext();
    }
  }

  #release(knowledgeBaseId: string, waiters: Array<() => void> | undefined): void {
    this.#nextPassWaiters.delete(knowledgeBaseId);
    for (const resolve of waiters ?? []) resolve();
  }
}
