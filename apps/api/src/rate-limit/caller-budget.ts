import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";

export type BudgetDecision = { allowed: true } | { allowed: false; retryAfterMs: number; limit: number };

const WINDOW_SECONDS = 60;

/**
 * A per-minute budget of points per caller. The counting is rate-limiter-flexible's; the in-memory store
 * keeps it per process, and a RateLimiterRedis with the same options would share it between processes.
 * A budget of 0 allows everything.
 */
export class CallerBudget {
  readonly #limiter: RateLimiterMemory | null;

  constructor(
    readonly name: string,
    readonly perMinute: number,
  ) {
    this.#limiter = perMinute > 0 ? new RateLimiterMemory({ keyPrefix: name, points: perMinute, duration: WINDOW_SECONDS }) : null;
  }

  /** Takes one point for the caller; refused when the caller's minute is spent. */
  async take(caller: string): Promise<BudgetDecision> {
    if (!this.#limiter) return { allowed: true };
    try {
      await this.#limiter.consume(caller, 1);
      return { allowed: true };
    } catch (refusal) {
      // The memory store only rejects with a RateLimiterRes; anything else is a bug worth surfacing.
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      return { allowed: false, retryAfterMs: Math.max(1, Math.ceil(refusal.msBeforeNext)), limit: this.perMinute };
    }
  }
}
