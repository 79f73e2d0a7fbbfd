import { setTimeout as sleep } from "node:timers/promises";
import { ApiError } from "./api-error.js";

export interface RetryPolicy {
  /** The refusals worth another try. */
  codes: readonly string[];
  /** Tries in all, the first included. */
  attempts: number;
  /** The wait before the second try; each later wait doubles it. */
  firstDelayMs: number;
}

/**
 * Reads after refusals that say "not now" rather than "no" (a server restarting, a rate limit): a few
 * tries over about half a minute, enough for an API restart, short enough for CI to notice an outage.
 */
export const READ_RETRY: RetryPolicy = { codes: ["API_UNREACHABLE", "RATE_LIMITED"], attempts: 5, firstDelayMs: 2_000 };

/**
 * `read` again after a refusal with one of the policy's codes, waiting longer each time; any other error,
 * or the last refusal, is thrown as is. Only for requests that change nothing or may be repeated.
 */
export async function withRetry<T>(read: () => Promise<T>, policy: RetryPolicy = READ_RETRY): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await read();
    } catch (error) {
      if (!(error instanceof ApiError && policy.codes.includes(error.code)) || attempt >= policy.attempts) throw error;
      await sleep(policy.firstDelayMs * 2 ** (attempt - 1));
    }
  }
}
