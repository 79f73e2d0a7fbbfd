import { pino } from "pino";
import type { RunEventMessage } from "../pubsub.js";
import { RedisEventBus } from "../redis/redis-event-bus.js";

const silent = pino({ level: "silent" });

/** Two buses on one Redis with their own connections and a fresh prefix, as two processes would have. */
export function redisBusPair(url: string): [RedisEventBus, RedisEventBus] {
  const prefix = `t${Math.random().toString(36).slice(2, 8)}`;
  return [new RedisEventBus({ url, prefix, logger: silent }), new RedisEventBus({ url, prefix, logger: silent })];
}

/** Polls until `check` holds; fails naming `what` after `ms`. */
export async function until(check: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A run event message as stored and published (a WARNING unless said otherwise). */
export const busEvent = (runId: string, seq: number, type: RunEventMessage["type"] = "WARNING"): RunEventMessage => ({
  runId, seq, type, at: new Date().toISOString(), nodeId: null, payload: { code: "W", message: `event ${seq}` },
});
