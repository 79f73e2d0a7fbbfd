import type { Env } from "../env.js";
import type { PrismaClient } from "../generated/prisma/client.js";
import type { Logger } from "../logger.js";
import { InProcessEventBus, type EventBus } from "../pubsub.js";
import { BullIngestionQueue } from "../queue/bull-ingestion-queue.js";
import { BullRunQueue } from "../queue/bull-run-queue.js";
import type { IngestionQueue, IngestionWorker } from "../queue/ingestion-queue.js";
import { InProcessRunQueue } from "../queue/in-process-run-queue.js";
import { RunReconciler } from "../queue/run-reconciler.js";
import type { RunQueue, RunWorker } from "../queue/run-queue.js";
import type { BudgetStore } from "../rate-limit/caller-budget.js";
import { connectRedis } from "../redis/redis-connection.js";
import { RedisEventBus } from "../redis/redis-event-bus.js";
import { executesRuns, type ProcessRole } from "./process-role.js";
import { BullTriggerScheduler, InProcessTriggerScheduler, type TriggerScheduler } from "../modules/trigger/index.js";
import { BullHumanTaskTimers, InProcessHumanTaskTimers, type ExpireTask, type HumanTaskTimers } from "../modules/human-task/index.js";
import { WORKER_ID } from "../modules/run/index.js";

/**
 * Where runs wait and events travel. Without REDIS_URL: in this process (the embedded default, one
 * process). With it: BullMQ and Redis pub/sub, shared by every API and worker process.
 */
export function createEventBus(env: Env, logger: Logger): EventBus {
  return env.REDIS_URL ? new RedisEventBus({ url: env.REDIS_URL, prefix: env.WEFT_REDIS_PREFIX, logger }) : new InProcessEventBus();
}

export function runQueueFactory(env: Env, role: ProcessRole, bus: EventBus, logger: Logger): (worker: RunWorker) => RunQueue {
  const concurrency = env.WEFT_PROCESS_CONCURRENCY;
  if (!env.REDIS_URL) return (worker) => new InProcessRunQueue({ worker, concurrency, logger });
  const url = env.REDIS_URL;
  return (worker) =>
    new BullRunQueue({
      url,
      prefix: env.WEFT_REDIS_PREFIX,
      bus,
      logger,
      worker: executesRuns(role) ? worker : null,
      concurrency,
      lockMs: env.WEFT_QUEUE_LOCK_MS,
      graceMs: env.WEFT_SHUTDOWN_GRACE_MS,
      workerId: WORKER_ID,
    });
}

/** Worker processes on Redis look for active runs (and PENDING documents) without a job (one of them per pass). */
export function startReconciler(
  env: Env,
  role: ProcessRole,
  db: PrismaClient,
  queues: { runs: RunQueue; ingestion: IngestionQueue },
  logger: Logger,
): RunReconciler | null {
  if (!(queues.runs instanceof BullRunQueue) || !executesRuns(role)) return null;
  const ingestion = queues.ingestion instanceof BullIngestionQueue ? queues.ingestion : null;
  return new RunReconciler(db, queues.runs, logger, Math.max(10_000, 2 * env.WEFT_QUEUE_LOCK_MS), ingestion);
}

/**
 * With Redis, rate limits and the WebSocket cap are counted there, across every API process. Its
 * commands fail fast while Redis is away, so the in-memory insurance limiters answer instead of waiting.
 */
export function createLimitStore(env: Env, logger: Logger): BudgetStore | null {
  if (!env.REDIS_URL) return null;
  return { redis: connectRedis(env.REDIS_URL, "limits", logger, { offline: false }), prefix: env.WEFT_REDIS_PREFIX };
}

/** Knowledge bases one worker process indexes at once. */
const INGESTION_CONCURRENCY = 2;

/**
 * With Redis, ingestion passes go to the worker processes through BullMQ; without, the knowledge-base
 * service keeps its in-process queue (undefined here).
 */
export function ingestionQueueFactory(
  env: Env,
  role: ProcessRole,
  bus: EventBus,
  db: PrismaClient,
  logger: Logger,
): ((worker: IngestionWorker) => IngestionQueue) | undefined {
  if (!env.REDIS_URL) return undefined;
  const url = env.REDIS_URL;
  const hasPending = async (knowledgeBaseId: string) => (await db.document.count({ where: { knowledgeBaseId, status: "PENDING" } })) > 0;
  return (worker) =>
    new BullIngestionQueue({
      url, prefix: env.WEFT_REDIS_PREFIX, bus, logger, worker: executesRuns(role) ? worker : null, concurrency: INGESTION_CONCURRENCY, lockMs: env.WEFT_QUEUE_LOCK_MS, hasPending,
    });
}

/**
 * Schedule triggers: BullMQ job schedulers with Redis (every process keeps them in step; processes that
 * execute runs fire the ticks), else croner in this process.
 */
export function createTriggerScheduler(
  env: Env,
  role: ProcessRole,
  db: PrismaClient,
  fire: (triggerId: string, tick: Date) => Promise<void>,
  logger: Logger,
): TriggerScheduler {
  if (!env.REDIS_URL) return new InProcessTriggerScheduler(db, fire, logger);
  return new BullTriggerScheduler({ url: env.REDIS_URL, prefix: env.WEFT_REDIS_PREFIX, db, logger, fire: executesRuns(role) ? fire : null });
}

/**
 * Timeouts of tasks for people: BullMQ delayed jobs with Redis (kept by Redis; processes that execute
 * runs fire them), else timers in this process restored from the database at start.
 */
export function createTaskTimers(env: Env, role: ProcessRole, db: PrismaClient, expire: ExpireTask, logger: Logger): HumanTaskTimers {
  if (!env.REDIS_URL) return new InProcessHumanTaskTimers(db, expire, logger);
  return new BullHumanTaskTimers({ url: env.REDIS_URL, prefix: env.WEFT_REDIS_PREFIX, db, logger, expire: executesRuns(role) ? expire : null });
}
