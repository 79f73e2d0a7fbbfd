import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";

export type BudgetDecision = { allowed: true } | { allowed: false; retryAfterMs: number; limit: number };

const WINDOW_SECONDS = 60;

/** Where a budget is counted: this process's memory, or Redis for one budget across processes. */
export interface BudgetStore {
  redis: Redis;
  /** WEFT_REDIS_PREFIX. */
  prefix: string;
}

/**
 * A per-minute budget of points per caller, counted by rate-limiter-flexible. In memory it is per
 * process; with a Redis store every process spends the same budget, and while Redis is away an in-memory
 * limiter with the same options stands in (its insurance limiter), so limits keep holding per process
 * instead of failing requests. A budget of 0 allows everything.
 */
export class CallerBudget {
  readonly #limiter: RateLimiterAbstract | null;

  constructor(
    readonly name: string,
    readonly perMinute: number,
    store: BudgetStore | null = null,
  ) {
    if (perMinute <= 0) {
      this.#limiter = null;
      return;
    }
    const options = { keyPrefix: store ? `${store.prefix}:limit:${name}` : name, points: perMinute, duration: WINDOW_SECONDS };
    this.#limiter = store
      ? new RateLimiterRedis({ ...options, storeClient: store.redis, rejectIfRedisNotReady: true, insuranceLimiter: new RateLimiterMemory(options) })
      : new RateLimiterMemory(options);
  }

  /** Takes one point for the caller; refused when the caller's minute is spent. */
  async take(caller: string): Promise<BudgetDecision> {
    if (!this.#limiter) return { allowed: true };
    try {
      await this.#limiter.consume(caller, 1);
      return { allowed: true };
    } catch (refusal) {
      // The limiters only reject with a RateLimiterRes (store errors go to the insurance limiter); anything
      // else is a bug worth surfacing.
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      return { allowed: false, retryAfterMs: Math.max(1, Math.ceil(refusal.msBeforeNext)), limit: this.perMinute };
    }
  }
}
