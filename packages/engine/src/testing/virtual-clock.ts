import type { Sleep } from "../model/abortable-sleep.js";

/**
 * Virtual time for tests of the schedule: `sleep` parks a waiter at now + ms; `run` lets every promise
 * chain settle, then jumps to the earliest parked waiter, until the work is done. Durations measured
 * this way depend only on the schedule, never on the machine (no timed assertions).
 */
export class VirtualClock {
  now = 0;
  readonly #parked: Array<{ at: number; wake: () => void; fail: (reason: unknown) => void; signal: AbortSignal; onAbort: () => void }> = [];

  readonly sleep: Sleep = (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const entry = { at: this.now + ms, wake: resolve, fail: reject, signal, onAbort: () => undefined };
      entry.onAbort = () => {
        this.#parked.splice(this.#parked.indexOf(entry), 1);
        reject(signal.reason);
      };
      signal.addEventListener("abort", entry.onAbort, { once: true });
      this.#parked.push(entry);
    });

  /** Drives `work` to its end in virtual time; resolves with its value and the virtual time it took. */
  async run<T>(work: Promise<T>): Promise<{ value: T; elapsed: number }> {
    const start = this.now;
    let finished = false;
    const watched = work.finally(() => (finished = true));
    while (!finished) {
      await new Promise((resolve) => setImmediate(resolve));
      if (finished || this.#parked.length === 0) continue;
      this.now = Math.min(...this.#parked.map((entry) => entry.at));
      for (const entry of this.#parked.filter((candidate) => candidate.at === this.now)) {
        this.#parked.splice(this.#parked.indexOf(entry), 1);
        entry.signal.removeEventListener("abort", entry.onAbort);
        entry.wake();
      }
    }
    return { value: await watched, elapsed: this.now - start };
  }

  /** How many waiters are parked (work in flight). */
  get parked(): number {
    return this.#parked.length;
  }
}
