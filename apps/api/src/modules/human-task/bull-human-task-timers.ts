import { DelayedError, Queue, Worker, type Job } from "bullmq";
import type { Redis } from "ioredis";
import type { PrismaClient } from "../../generated/prisma/client.js";
import type { Logger } from "../../logger.js";
import { closeRedis, connectRedis } from "../../redis/redis-connection.js";
import { openTasksWithTimeouts, type ExpireTask, type HumanTaskTimers } from "./human-task-timers.js";

export const HUMAN_TASK_TIMEOUT_QUEUE_NAME = "human-task-timeouts";

export interface BullHumanTaskTimersOptions {
  url: string;
  prefix: string;
  db: PrismaClient;
  logger: Logger;
  /** The expiry of a process that executes runs; null in one that only serves the API (`--role api`): it schedules, others fire. */
  expire: ExpireTask | null;
}

/**
 * Timeouts on Redis: one delayed BullMQ job per task (job id: the task id, so scheduling it again adds
 * nothing), kept by Redis across restarts of every process and taken by one worker of any process when
 * due. A job that runs twice (a stalled worker) expires nothing the second time: expireOpenTask only
 * closes a task still open. At start the open tasks are scheduled again, in case Redis lost them.
 */
export class BullHumanTaskTimers implements HumanTaskTimers {
  readonly #queue: Queue;
  readonly #worker: Worker | null = null;
  readonly #connections: Redis[] = [];

  constructor(private readonly options: BullHumanTaskTimersOptions) {
    const quiet = (error: Error) => options.logger.debug({ err: { message: error.message } }, "task timeout queue error");
    this.#queue = new Queue(HUMAN_TASK_TIMEOUT_QUEUE_NAME, { connection: this.#connect("queue"), prefix: options.prefix, defaultJobOptions: { removeOnComplete: true, removeOnFail: true } });
    this.#queue.on("error", quiet);
    if (options.expire) {
      const expire = options.expire;
      const fire = async (job: Job<{ taskId: string }>, token?: string) => {
        const due = await expire(job.data.taskId);
        if (!due) return;
        // Fired before the task is due (clocks of processes differ): the same job waits again.
        await job.moveToDelayed(due.getTime(), token);
        throw new DelayedError();
      };
      this.#worker = new Worker(HUMAN_TASK_TIMEOUT_QUEUE_NAME, fire, {
        connection: this.#connect("worker"),
        prefix: options.prefix,
        concurrency: 4,
      });
      this.#worker.on("error", quiet);
      this.#worker.on("failed", (job, error) => options.logger.error({ err: error, taskId: job?.data.taskId }, "a task could not be expired"));
    }
  }

  schedule(taskId: string, expiresAt: Date): void {
    const delay = Math.max(0, expiresAt.getTime() - Date.now());
    this.#queue.add("expire", { taskId }, { jobId: taskId, delay }).catch((error: unknown) => {
      this.options.logger.warn({ taskId, err: { message: (error as Error).message } }, "a task's timeout was not handed to Redis; it is scheduled again at the next start");
    });
  }

  async restore(): Promise<number> {
    const open = await openTasksWithTimeouts(this.options.db);
    for (const task of open) this.schedule(task.id, task.expiresAt);
    return open.length;
  }

  async close(): Promise<void> {
    await this.#worker?.close();
    await this.#queue.close();
    await Promise.all(this.#connections.map((connection) => closeRedis(connection)));
  }

  #connect(role: "queue" | "worker"): Redis {
    const connection = connectRedis(this.options.url, role, this.options.logger);
    this.#connections.push(connection);
    return connection;
  }
}
