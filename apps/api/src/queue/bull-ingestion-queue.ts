import { Queue, QueueEvents, WaitingError, Worker, type Job } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "../logger.js";
import { ALL_RUNS, type EventBus } from "../pubsub.js";
import { closeRedis, connectRedis } from "../redis/redis-connection.js";
import type { IngestionQueue, IngestionWorker } from "./ingestion-queue.js";
import { SHUTDOWN_REASON } from "./in-process-run-queue.js";

/** The BullMQ queue of ingestion passes: at most one job per knowledge base (its id is the job id). */
export const INGESTION_QUEUE_NAME = "ingestion";

/** How long cancel waits for the worker indexing a knowledge base to stop. */
const CANCEL_WAIT_MS = 10_000;
/** Passes one job (or one request) makes at most while documents stay PENDING (one that cannot be indexed stays). */
const MAX_PASSES = 3;

export interface BullIngestionQueueOptions {
  url: string;
  prefix: string;
  bus: EventBus;
  logger: Logger;
  /** The indexer of a worker process; null in a process that only enqueues (`--role api`). */
  worker: IngestionWorker | null;
  /** Knowledge bases indexed at once by this process. */
  concurrency: number;
  lockMs: number;
  /** Whether the knowledge base has documents waiting to be indexed (PENDING). */
  hasPending(knowledgeBaseId: string): Promise<boolean>;
}

/**
 * Ingestion across processes, on BullMQ: API processes ask for passes, worker processes index. The job id
 * is the knowledge base's id, so a knowledge base has one pass waiting or running at a time, wherever it
 * runs. A request that arrives while a pass runs is not lost: the pass indexes again while documents are
 * PENDING, and `enqueue` asks again after the pass it waited for if some still are (a document stored just
 * as the pass ended). A worker process that stops aborts its passes (their current document goes back to
 * PENDING) and hands each back to the queue, so another worker continues it at once.
 */
export class BullIngestionQueue implements IngestionQueue {
  readonly #queue: Queue;
  readonly #events: QueueEvents;
  readonly #worker: Worker | null = null;
  readonly #connections: Redis[] = [];
  readonly #options: BullIngestionQueueOptions;
  #unsubscribeCancel: (() => void) | null = null;
  #running = 0;
  #closed = false;

  constructor(options: BullIngestionQueueOptions) {
    this.#options = options;
    const connection = this.#connect("queue");
    this.#queue = new Queue(INGESTION_QUEUE_NAME, { connection, prefix: options.prefix, defaultJobOptions: { removeOnComplete: true, removeOnFail: true } });
    this.#events = new QueueEvents(INGESTION_QUEUE_NAME, { connection: this.#connect("worker"), prefix: options.prefix });
    const quiet = (error: Error) => options.logger.debug({ err: { message: error.message } }, "ingestion queue error");
    this.#queue.on("error", quiet);
    this.#events.on("error", quiet);
    if (options.worker) {
      const index = options.worker;
      // Three declared parameters: BullMQ hands a signal only to processors that take one.
      const processor = (job: Job<{ knowledgeBaseId: string }>, token: string | undefined, signal: AbortSignal | undefined) => this.#process(index, job, token, signal);
      this.#worker = new Worker(INGESTION_QUEUE_NAME, processor, {
        connection: this.#connect("worker"),
        prefix: options.prefix,
        concurrency: options.concurrency,
        lockDuration: options.lockMs,
        stalledInterval: options.lockMs,
        maxStalledCount: Number.MAX_SAFE_INTEGER,
      });
      this.#worker.on("error", (error) => options.logger.debug({ err: { message: error.message } }, "ingestion worker error"));
      this.#worker.on("failed", (job, error) => options.logger.error({ err: error, knowledgeBaseId: job?.id }, "ingestion pass failed"));
      void options.bus
        .subscribe("ingestionCancel", ALL_RUNS, ({ knowledgeBaseId, reason }) => void this.#worker?.cancelJob(knowledgeBaseId, reason))
        .then((unsubscribe) => (this.#unsubscribeCancel = unsubscribe));
    }
  }

  async enqueue(knowledgeBaseId: string): Promise<void> {
    for (let request = 0; request < MAX_PASSES && !this.#closed; request += 1) {
      try {
        const job = await this.#queue.add("index", { knowledgeBaseId }, { jobId: knowledgeBaseId });
        await job.waitUntilFinished(this.#events).catch(() => undefined);
      } catch (error) {
        this.#options.logger.warn({ knowledgeBaseId, err: { message: (error as Error).message } }, "could not hand an ingestion pass to the queue");
        return;
      }
      if (!(await this.#options.hasPending(knowledgeBaseId))) return;
    }
  }

  /** Whether a pass for the knowledge base waits or runs somewhere (the reconciler asks). */
  async hasJob(knowledgeBaseId: string): Promise<boolean> {
    return ["waiting", "active", "delayed", "prioritized"].includes(await this.#queue.getJobState(knowledgeBaseId));
  }

  async cancel(knowledgeBaseId: string, reason: string): Promise<void> {
    const job = await this.#queue.getJob(knowledgeBaseId);
    if (!job) return;
    if (["waiting", "delayed", "prioritized"].includes(await job.getState())) {
      try {
        await job.remove();
        return;
      } catch {
        // Taken by a worker in the meantime: cancel it there.
      }
    }
    await this.#options.bus.publish("ingestionCancel", ALL_RUNS, { knowledgeBaseId, reason });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, CANCEL_WAIT_MS)));
    await Promise.race([job.waitUntilFinished(this.#events).catch(() => undefined), timeout]).finally(() => clearTimeout(timer));
  }

  stats(): { queued: number; running: number } {
    return { queued: 0, running: this.#running };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#unsubscribeCancel?.();
    if (this.#worker) {
      this.#worker.cancelAllJobs(SHUTDOWN_REASON);
      await this.#worker.close();
    }
    await this.#events.close();
    await this.#queue.close();
    await Promise.all(this.#connections.map((connection) => closeRedis(connection)));
  }

  /** One pass over a knowledge base (more while documents are PENDING), handed back to the queue if this process stops. */
  async #process(index: IngestionWorker, job: Job<{ knowledgeBaseId: string }>, token: string | undefined, signal: AbortSignal | undefined): Promise<void> {
    const { knowledgeBaseId } = job.data;
    const aborted = signal ?? new AbortController().signal;
    this.#running += 1;
    try {
      for (let pass = 0; pass < MAX_PASSES && !aborted.aborted; pass += 1) {
        await index(knowledgeBaseId, aborted);
        if (!(await this.#options.hasPending(knowledgeBaseId))) break;
      }
    } finally {
      this.#running -= 1;
    }
    if (aborted.aborted && aborted.reason === SHUTDOWN_REASON && token) {
      // This process is stopping: the document it was indexing is PENDING again (its partial chunks
      // removed), and the pass goes back to waiting for another worker to take at once.
      this.#options.logger.info({ knowledgeBaseId }, "handing the ingestion pass over to another worker");
      await job.moveToWait(token);
      throw new WaitingError();
    }
    this.#options.logger.info({ knowledgeBaseId }, "ingestion pass done");
  }

  #connect(role: "queue" | "worker"): Redis {
    const connection = connectRedis(this.#options.url, role, this.#options.logger);
    this.#connections.push(connection);
    return connection;
  }
}
