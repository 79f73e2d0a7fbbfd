import { WeftError } from "../model/errors.js";

/**
 * A counting semaphore shared by several runs, so a process-wide cap can sit on top of each run's
 * own cap. Waiters are served first come, first served; a waiter whose signal aborts leaves the queue.
 */
export class ConcurrencyLimiter {
  readonly limit: number;
  #active = 0;
  readonly #waiters: Array<{ grant: () => void }> = [];

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) {
      throw new WeftError("INVALID_CONCURRENCY", `a concurrency limit must be a whole number ≥ 1, not ${limit}`);
    }
    this.limit = limit;
  }

  get active(): number {
    return this.#active;
  }

  get waiting(): number {
    return this.#waiters.length;
  }

  /** Takes a slot if one is free right now. */
  tryAcquire(): boolean {
    if (this.#active >= this.limit || this.#waiters.length > 0) return false;
    this.#active += 1;
    return true;
  }

  /** Resolves once a slot is held; rejects with the signal's reason if aborted while waiting. */
  acquire(signal: AbortSignal): Promise<void> {
    if (this.tryAcquire()) return Promise.resolve();
    signal.throwIfAborted();
    return new Promise<void>((resolve, reject) => {
      const waiter = {
        grant: () => {
          signal.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        const at = this.#waiters.indexOf(waiter);
        if (at !== -1) this.#waiters.splice(at, 1);
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }

  /** Gives a slot back; the oldest waiter, if any, takes it over. */
  release(): void {
    const next = this.#waiters.shift();
    if (next) next.grant();
    else this.#active = Math.max(0, this.#active - 1);
  }
}
