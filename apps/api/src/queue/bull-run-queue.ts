import { Queue, WaitingError, Worker, type Job } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "../logger.js";
import { ALL_RUNS, type EventBus } from "../pubsub.js";
import { closeRedis, connectRedis } from "../redis/redis-connection.js";
import { HANDOVER_REASON, type CancelResult, type RunQueue, type RunQueueStats, type RunWorker } from "./run-queue.js";

/** The BullMQ queue of runs: one job per run, the run id as job id (adding it twice adds one job). */
export const RUN_QUEUE_NAME = "runs";

/** How long cancel waits for the worker executing a run to record its end. */
const CANCEL_WAIT_MS = 10_000;
/** How long, and how often, enqueueAgain looks for a run's previous job to be gone. */
const AGAIN_WAIT_MS = 10_000;
const AGAIN_POLL_MS = 5;
/** How often the cluster's waiting count is read (health and metrics). */
const COUNTS_EVERY_MS = 2_000;

export interface BullRunQueueOptions {
  url: string;
  /** WEFT_REDIS_PREFIX: BullMQ's key prefix. */
  prefix: string;
  bus: EventBus;
  logger: Logger;
  /** The run executor of a worker process; null in a process that only enqueues (`--role api`). */
  worker: RunWorker | null;
  /** Runs this process executes at once. */
  concurrency: number;
  /** WEFT_QUEUE_LOCK_MS: a worker's job lock, renewed at half of it; stalled jobs are looked for as often. */
  lockMs: number;
  /** WEFT_SHUTDOWN_GRACE_MS: how long `close` lets the runs executing here finish before handing them over. */
  graceMs: number;
  /** This process's name in its run claims (WORKER_ID); its BullMQ worker connection carries it, so others can tell it is alive. */
  workerId: string;
}

/**
 * The run queue across processes, on BullMQ. API processes add jobs; worker processes execute them,
 * `concurrency` at a time each. A worker that dies stops renewing its job's lock, and within about two
 * lock periods another worker's stalled-job check hands the job to a worker again (which claims a new
 * attempt of the run in PostgreSQL: run-claim.ts). BullMQ never gives up on a stalled job by itself:
 * the number of attempts is counted in PostgreSQL (WEFT_RUN_MAX_ATTEMPTS).
 *
 * Cancellation reaches the process executing the run wherever it is: a waiting job is removed; otherwise
 * every worker hears `runCancel` on the event bus and the one holding the job aborts it.
 *
 * A worker that is stopped (`close`, on SIGTERM) takes no more jobs and lets its runs finish for
 * `graceMs`; then it aborts the rest with HANDOVER_REASON: each stops without terminal events, releases
 * its claim, and its job goes back to waiting (not failed, not left to the stalled-job check), so
 * another worker resumes it at once.
 */
export class BullRunQueue implements RunQueue {
  readonly #queue: Queue;
  readonly #worker: Worker | null = null;
  readonly #connection: Redis;
  readonly #workerConnection: Redis | null = null;
  readonly #options: BullRunQueueOptions;
  readonly #ready: Promise<void>;
  #unsubscribeCancel: (() => void) | null = null;
  #running = 0;
  #waiting = 0;
  readonly #countsTimer: NodeJS.Timeout;
  #closing: Promise<void> | null = null;

  constructor(options: BullRunQueueOptions) {
    this.#options = options;
    this.#connection = connectRedis(options.url, "queue", options.logger);
    this.#queue = new Queue(RUN_QUEUE_NAME, {
      connection: this.#connection,
      prefix: options.prefix,
      defaultJobOptions: { removeOnComplete: true, removeOnFail: true },
    });
    this.#queue.on("error", (error) => options.logger.debug({ err: { message: error.message } }, "run queue error"));
    if (options.worker) {
      const execute = options.worker;
      this.#workerConnection = connectRedis(options.url, "worker", options.logger);
      // Three declared parameters: BullMQ hands a signal only to processors that take one.
      const processor = async (job: Job<{ runId: string }>, token: string | undefined, signal: AbortSignal | undefined) => {
        this.#running += 1;
        let end;
        try {
          end = await execute(job.data.runId, signal ?? new AbortController().signal);
        } finally {
          this.#running -= 1;
        }
        if (end === "handed over" && token) {
          await job.moveToWait(token);
          throw new WaitingError();
        }
      };
      this.#worker = new Worker(RUN_QUEUE_NAME, processor, {
        connection: this.#workerConnection,
        prefix: options.prefix,
        concurrency: options.concurrency,
        name: options.workerId,
        lockDuration: options.lockMs,
        stalledInterval: options.lockMs,
        maxStalledCount: Number.MAX_SAFE_INTEGER,
      });
      this.#worker.on("error", (error) => options.logger.debug({ err: { message: error.message } }, "run worker error"));
      this.#worker.on("failed", (job, error) => options.logger.error({ err: error, runId: job?.id }, "run worker failed"));
    }
    this.#ready = this.#subscribeCancel();
    this.#countsTimer = setInterval(() => void this.#refreshCounts(), COUNTS_EVERY_MS);
    this.#countsTimer.unref();
  }

  /** Resolves once the worker listens for cancellations and takes jobs. */
  async ready(): Promise<void> {
    await this.#ready;
    await this.#worker?.waitUntilReady();
  }

  enqueue(runId: string): void {
    // A job that cannot be added now (Redis away) is added when Redis is back; if this process stops
    // first, the reconciler adds it (the run is QUEUED in PostgreSQL either way).
    this.#queue.add("run", { runId }, { jobId: runId }).catch((error: unknown) => {
      this.#options.logger.warn({ runId, err: { message: (error as Error).message } }, "run not handed to the queue yet; the reconciler will");
    });
  }

  enqueueAgain(runId: string): void {
    void this.#addOnceGone(runId).catch((error: unknown) => {
      this.#options.logger.warn({ runId, err: { message: (error as Error).message } }, "run not handed to the queue yet; the reconciler will");
    });
  }

  /**
   * BullMQ adds nothing for a job id it still holds, and a run's job ends (and is removed) just after its
   * execution parked the run: a continuation arriving in between would be lost. So the job is added once
   * the earlier one is gone (a few milliseconds, at most AGAIN_WAIT_MS).
   */
  async #addOnceGone(runId: string): Promise<void> {
    const deadline = Date.now() + AGAIN_WAIT_MS;
    while (["active", "completed", "failed"].includes(await this.#queue.getJobState(runId)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, AGAIN_POLL_MS));
    }
    await this.#queue.add("run", { runId }, { jobId: runId });
  }

  /** Whether a job for the run waits or executes somewhere (the reconciler asks). */
  async hasJob(runId: string): Promise<boolean> {
    return ["waiting", "active", "delayed", "prioritized", "waiting-children"].includes(await this.#queue.getJobState(runId));
  }

  async cancel(runId: string, reason: string): Promise<CancelResult> {
    const job = await this.#queue.getJob(runId);
    if (job && ["waiting", "delayed", "prioritized"].includes(await job.getState())) {
      try {
        await job.remove();
        return "dequeued";
      } catch {
        // Taken by a worker in the meantime: cancel it there.
      }
    }
    let unsubscribe: (() => void) | null = null;
    let timer: NodeJS.Timeout | undefined;
    const ended = new Promise<CancelResult>((resolve) => {
      timer = setTimeout(() => resolve("unknown"), CANCEL_WAIT_MS);
      void this.#options.bus
        .subscribe("runStatus", ALL_RUNS, (message) => {
          if (message.runId === runId && !["QUEUED", "RUNNING"].includes(message.status)) resolve("aborted");
        })
        .then(async (stop) => {
          unsubscribe = stop;
          await this.#options.bus.publish("runCancel", ALL_RUNS, { runId, reason });
        });
    });
    try {
      return await ended;
    } finally {
      clearTimeout(timer);
      (unsubscribe as (() => void) | null)?.();
    }
  }

  /**
   * Whether a worker process is alive: its BullMQ worker keeps a Redis connection named after it, and
   * the kernel closes the connections of a process that dies, killed or not. Where Redis does not list
   * its clients (this worker not among them), none counts as alive: the crash rule as without the check.
   */
  async workerAlive(workerId: string): Promise<boolean> {
    const names = (await this.#queue.getWorkers()).map((client) => String(client["rawname"] ?? ""));
    const listed = (id: string) => names.some((name) => name.endsWith(`:w:${id}`));
    return this.#worker !== null && listed(this.#options.workerId) && listed(workerId);
  }

  stats(): RunQueueStats {
    return { queued: this.#waiting, running: this.#running };
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      clearInterval(this.#countsTimer);
      this.#unsubscribeCancel?.();
      if (this.#worker) await this.#closeWorker(this.#worker);
      await this.#queue.close();
      await Promise.all([closeRedis(this.#connection), this.#workerConnection ? closeRedis(this.#workerConnection) : undefined]);
    })();
    return this.#closing;
  }

  /** Stops taking jobs; the runs still executing after the grace period are handed over. */
  async #closeWorker(worker: Worker): Promise<void> {
    const closed = worker.close();
    this.#options.logger.info({ runs: this.#running, graceMs: this.#options.graceMs }, "stopping: this worker takes no more runs");
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), this.#options.graceMs)));
    const handOver = await Promise.race([closed.then(() => false), graceOver]);
    clearTimeout(timer);
    if (handOver) {
      this.#options.logger.info({ runs: this.#running, graceMs: this.#options.graceMs }, "stopping: handing the runs still executing here to other workers");
      worker.cancelAllJobs(HANDOVER_REASON);
    }
    await closed;
  }

  async #subscribeCancel(): Promise<void> {
    if (!this.#worker) return;
    const worker = this.#worker;
    this.#unsubscribeCancel = await this.#options.bus.subscribe("runCancel", ALL_RUNS, ({ runId, reason }) => {
      if (worker.cancelJob(runId, reason)) this.#options.logger.info({ runId }, "cancelling the run executed here");
    });
  }

  async #refreshCounts(): Promise<void> {
    try {
      this.#waiting = await this.#queue.getWaitingCount();
    } catch {
      // Redis away: keep the last figure.
    }
  }
}
