import { isAbortError, ProviderError } from "../model/errors.js";
import type { Sleep } from "../model/abortable-sleep.js";

export interface RetryOptions {
  /** Attempts in all, the first included. 1 disables retries. */
  attempts: number;
  /** Delay before the first retry; doubled for each further one. */
  baseDelayMs: number;
  /** Ceiling of the exponential delay. */
  maxDelayMs: number;
  /** A provider asking (Retry-After) for a longer wait than this is not retried. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_OPTIONS: RetryOptions = {
  attempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

export interface RetryNotice {
  /** The attempt about to be made, from 1 (the first retry). */
  attempt: number;
  delayMs: number;
  error: ProviderError;
}

export interface RetryEnvironment {
  options: RetryOptions;
  sleep: Sleep;
  /** In [0, 1); injected so tests know the jitter. */
  random: () => number;
  signal: AbortSignal;
  onRetry: (notice: RetryNotice) => void;
}

/**
 * Runs `call`, retrying transient provider failures (`ProviderError.retryable`: timeouts, 429, 5xx).
 * The wait is the provider's Retry-After when it gave one, else exponential backoff with "equal
 * jitter" (half fixed, half random) so parallel nodes that failed together do not retry together.
 * Waiting is abortable; anything else (aborts, permanent errors) is thrown at once.
 */
export async function withRetries<T>(call: (attempt: number) => Promise<T>, env: RetryEnvironment): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await call(attempt);
    } catch (error) {
      if (isAbortError(error) || env.signal.aborted) throw error;
      const delayMs = retryDelay(error, attempt, env);
      if (delayMs === null) throw error;
      env.onRetry({ attempt: attempt + 1, delayMs, error: error as ProviderError });
      await env.sleep(delayMs, env.signal);
    }
  }
}

/** Milliseconds to wait before the next attempt, or null when the error must not be retried. */
export function retryDelay(error: unknown, attempt: number, env: Pick<RetryEnvironment, "options" | "random">): number | null {
  const { options } = env;
  if (!(error instanceof ProviderError) || !error.retryable || attempt + 1 >= options.attempts) return null;
  if (error.retryAfterMs !== undefined) {
    return error.retryAfterMs <= options.maxRetryAfterMs ? Math.max(0, error.retryAfterMs) : null;
  }
  const exponential = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);
  return Math.round(exponential / 2 + env.random() * (exponential / 2));
}
