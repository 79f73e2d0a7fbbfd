/**
 * Simulated time for latency benchmarks: `sleep` registers a timer on a virtual clock instead of the
 * real one, and `drive` advances the clock to the next timer whenever nothing else can run. Makespans
 * measured this way depend only on the schedule, not on timer lateness or other load on the machine.
 */
export class VirtualClock {
  now = 0;
  readonly #timers: Array<{ at: number; wake: () => void }> = [];

  readonly sleep = (ms: number, signal: AbortSignal): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      this.#timers.push({ at: this.now + ms, wake: resolve });
    });

  /** Runs `work` to completion in virtual time; resolves with its result and the virtual time it took. */
  async drive<T>(work: Promise<T>): Promise<{ value: T; elapsedMs: number }> {
    const start = this.now;
    let settled = false;
    const watched = work.finally(() => (settled = true));
    while (!settled) {
      // A macrotask boundary: every microtask chain queued so far has run.
      await new Promise((resolve) => setImmediate(resolve));
      if (settled || this.#timers.length === 0) continue;
      const next = Math.min(...this.#timers.map((timer) => timer.at));
      this.now = next;
      for (let i = this.#timers.length - 1; i >= 0; i -= 1) {
        if (this.#timers[i]!.at === next) this.#timers.splice(i, 1)[0]!.wake();
      }
    }
    return { value: await watched, elapsedMs: this.now - start };
  }
}
