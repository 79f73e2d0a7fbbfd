import { Redis, type RedisOptions } from "ioredis";
import type { Logger } from "../logger.js";

/** What a connection is for: its name shows in Redis's CLIENT LIST and in our logs. */
export type RedisRole = "publish" | "subscribe" | "queue" | "worker" | "limits";

/**
 * A connection to REDIS_URL that reconnects forever (every 0.1 s, backing off to 2 s): PostgreSQL holds
 * every run, so Redis being away delays work but loses none. `worker` connections block on commands
 * (BullMQ's workers), so their commands never time out; the others fail fast while disconnected
 * (`offline`: false) or wait for the connection to come back (`offline`: true).
 */
export function connectRedis(url: string, role: RedisRole, logger: Logger, options: { offline?: boolean } = {}): Redis {
  const settings: RedisOptions = {
    connectionName: `weft-${role}`,
    lazyConnect: false,
    retryStrategy: (times) => Math.min(100 * times, 2_000),
    maxRetriesPerRequest: role === "worker" || role === "queue" ? null : 3,
    enableOfflineQueue: options.offline ?? true,
    autoResubscribe: false,
    // The ready check sends INFO, which a connection in subscriber mode may not send after a reconnection.
    enableReadyCheck: role !== "subscribe",
  };
  const redis = new Redis(url, settings);
  let down = false;
  redis.on("error", (error: Error) => {
    // ioredis reports every failed reconnection; one warning per outage is enough.
    if (down) return;
    down = true;
    logger.warn({ role, err: { message: error.message, code: (error as NodeJS.ErrnoException).code } }, "Redis connection lost; reconnecting");
  });
  redis.on("ready", () => {
    if (!down) return;
    down = false;
    logger.info({ role }, "Redis connection back");
  });
  return redis;
}

/** Closes a connection without waiting for an absent server. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === "end") return;
  if (redis.status !== "ready") {
    redis.disconnect();
    return;
  }
  await redis.quit().catch(() => redis.disconnect());
}
