import { WeftError } from "../model/errors.js";

/** What a run takes a slot from before a node does its own work. */
export interface Slots {
  /** Takes a slot if one is free right now. */
  tryAcquire(): boolean;
  /** Resolves once a slot is held; rejects with the signal's reason if aborted while waiting. */
  acquire(signal: AbortSignal): Promise<void>;
  /** Gives the slot back. */
  release(): void;
}

interface Waiter {
  /** Slots it takes at once: 1, or the whole limiter for an exclusive view. */
  weight: number;
  grant: () => void;
}

/**
 * A counting semaphore shared by several runs, so a process-wide cap can sit on top of each run's
 * own cap. Waiters are served first come, first served; a waiter whose signal aborts leaves the queue.
 * `exclusive()` hands out slots that are the whole limiter: a node holding one executes alone in the
 * process (the API executes a run suspected of crashing its worker that way).
 */
export class ConcurrencyLimiter implements Slots {
  readonly limit: number;
  #active = 0;
  readonly #waiters: Waiter[] = [];

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) {
      throw new WeftError("INVALID_CONCURRENCY", `a concurrency limit must be a whole number ≥ 1, not ${limit}`);
    }
    this.limit = limit;
  }

  /** Slots held (an exclusive slot counts as all of them). */
  get active(): number {
    return this.#active;
  }

  get waiting(): number {
    return this.#waiters.length;
  }

  tryAcquire(): boolean {
    return this.#tryTake(1);
  }

  acquire(signal: AbortSignal): Promise<void> {
    return this.#take(1, signal);
  }

  /** Gives a slot back; the oldest waiters, if they now fit, take it over. */
  release(): void {
    this.#give(1);
  }

  /**
   * Slots of this limiter that each take all of it: granted once nothing else holds a slot, and while
   * held nothing else is granted. First come, first served with the ordinary waiters, so neither kind
   * starves the other.
   */
  exclusive(): Slots {
    return {
      tryAcquire: () => this.#tryTake(this.limit),
      acquire: (signal) => this.#take(this.limit, signal),
      release: () => this.#give(this.limit),
    };
  }

  #tryTake(weight: number): boolean {
    if (this.#active + weight > this.limit || this.#waiters.length > 0) return false;
    this.#active += weight;
    return true;
  }

  #take(weight: number, signal: AbortSignal): Promise<void> {
    if (this.#tryTake(weight)) return Promise.resolve();
    signal.throwIfAborted();
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        weight,
        grant: () => {
          signal.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        const at = this.#waiters.indexOf(waiter);
        if (at !== -1) this.#waiters.splice(at, 1);
        // The head may have been an exclusive waiter holding the others back.
        this.#grantWaiting();
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }

  #give(weight: number): void {
    this.#active = Math.max(0, this.#active - weight);
    this.#grantWaiting();
  }

  #grantWaiting(): void {
    while (this.#waiters.length > 0 && this.#active + this.#waiters[0]!.weight <= this.limit) {
      const next = this.#waiters.shift()!;
      this.#active += next.weight;
      next.grant();
    }
  }
}
