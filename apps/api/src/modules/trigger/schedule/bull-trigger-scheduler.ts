import { Queue, Worker, type Job, type RepeatOptions } from "bullmq";
import type { Redis } from "ioredis";
import type { PrismaClient } from "../../../generated/prisma/client.js";
import type { Logger } from "../../../logger.js";
import { closeRedis, connectRedis } from "../../../redis/redis-connection.js";
import type { FireTick } from "./in-process-trigger-scheduler.js";
import { nextTickAfter } from "./schedule-ticks.js";
import type { ScheduleRow, TriggerScheduler } from "./trigger-scheduler.js";

export const TRIGGER_QUEUE_NAME = "triggers";

export interface BullTriggerSchedulerOptions {
  url: string;
  prefix: string;
  db: PrismaClient;
  logger: Logger;
  /** The firing service of a process that executes runs; null in one that only serves the API (`--role api`). */
  fire: FireTick | null;
}

/** The next tick by croner (the same reading of cron and zone as in-process), so BullMQ's own parser is not used. */
function croner(millis: number, options: RepeatOptions): number | undefined {
  if (!options.pattern) return undefined;
  return nextTickAfter(options.pattern, options.tz ?? "UTC", new Date(millis))?.getTime();
}

/**
 * Schedules on Redis: one BullMQ job scheduler per trigger (id `trigger:<id>`), whose single pending job
 * per tick is taken by one worker of any process; each job carries its tick (`prevMillis`). Changes made
 * by any API process reach Redis directly. A job that runs twice (a stalled worker) is stopped by the
 * firing's claim on `tick:<time>`; a tick the queue never delivered (a busy worker takes the next one
 * late, and BullMQ plans from then) is fired with the next one (tick-plan.ts).
 */
export class BullTriggerScheduler implements TriggerScheduler {
  readonly #queue: Queue;
  readonly #worker: Worker | null = null;
  readonly #connections: Redis[] = [];

  constructor(private readonly options: BullTriggerSchedulerOptions) {
    const quiet = (error: Error) => options.logger.debug({ err: { message: error.message } }, "trigger queue error");
    this.#queue = new Queue(TRIGGER_QUEUE_NAME, {
      connection: this.#connect("queue"),
      prefix: options.prefix,
      settings: { repeatStrategy: croner },
      defaultJobOptions: { removeOnComplete: true, removeOnFail: true },
    });
    this.#queue.on("error", quiet);
    if (options.fire) {
      const fire = options.fire;
      this.#worker = new Worker(TRIGGER_QUEUE_NAME, (job: Job<{ triggerId: string }>) => fire(job.data.triggerId, new Date(job.opts.prevMillis ?? job.timestamp)), {
        connection: this.#connect("worker"),
        prefix: options.prefix,
        concurrency: 4,
        settings: { repeatStrategy: croner },
      });
      this.#worker.on("error", quiet);
      this.#worker.on("failed", (job, error) => options.logger.error({ err: error, triggerId: job?.data.triggerId }, "schedule tick failed"));
    }
  }

  async start(): Promise<void> {
    const rows = await this.options.db.trigger.findMany({ where: { kind: "SCHEDULE", enabled: true } });
    const wanted = new Set(rows.map((row) => schedulerId(row.id)));
    for (const scheduler of await this.#queue.getJobSchedulers()) {
      if (scheduler.key && !wanted.has(scheduler.key)) await this.#queue.removeJobScheduler(scheduler.key);
    }
    for (const row of rows) await this.sync(row);
    if (!this.options.fire) return;
    // What came due while no process ran: fired or recorded as missed (tick-plan.ts), once across processes.
    const now = new Date();
    for (const row of rows) await this.options.fire(row.id, now).catch((error: unknown) => this.options.logger.error({ err: error, triggerId: row.id }, "catching up a schedule failed"));
  }

  async sync(row: ScheduleRow): Promise<void> {
    if (row.kind !== "SCHEDULE" || !row.enabled || !row.cron) return this.remove(row.id);
    await this.#queue.upsertJobScheduler(schedulerId(row.id), { pattern: row.cron, tz: row.timezone ?? "UTC" }, { name: "tick", data: { triggerId: row.id } });
  }

  async remove(triggerId: string): Promise<void> {
    await this.#queue.removeJobScheduler(schedulerId(triggerId));
  }

  nextTick(row: ScheduleRow): Date | null {
    return row.cron ? nextTickAfter(row.cron, row.timezone ?? "UTC", new Date()) : null;
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

function schedulerId(triggerId: string): string {
  return `trigger:${triggerId}`;
}
