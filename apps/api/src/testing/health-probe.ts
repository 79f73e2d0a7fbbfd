/**
 * Asks GET /healthz every ~100 ms while a test runs hostile work, from the test's own process, so a
 * stalled API process shows as a probe that takes more than a second (a hang: the test fails) or that
 * fails. Latencies are kept for the p99 the closing note records; nothing is asserted about speed.
 */
export const PROBE_EVERY_MS = 100;
export const HANG_MS = 1_000;

export class HealthProbe {
  readonly latencies: number[] = [];
  readonly problems: string[] = [];
  #running = true;
  readonly #done: Promise<void>;

  constructor(readonly baseUrl: string) {
    this.#done = this.#loop();
  }

  async #loop(): Promise<void> {
    while (this.#running) {
      const started = performance.now();
      try {
        const response = await fetch(`${this.baseUrl}/healthz`, { signal: AbortSignal.timeout(HANG_MS) });
        await response.arrayBuffer();
        const latency = performance.now() - started;
        this.latencies.push(latency);
        if (response.status !== 200) this.problems.push(`/healthz answered ${response.status} at ${new Date().toISOString()}`);
      } catch (error) {
        this.problems.push(`/healthz did not answer within ${HANG_MS} ms at ${new Date().toISOString()}: ${(error as Error).message}`);
      }
      const wait = PROBE_EVERY_MS - (performance.now() - started);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** Latency at a quantile (0.99: the p99) of the probes so far, in ms. */
  quantile(q: number): number {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  }

  /** Forgets what was recorded (one window per hostile input). */
  reset(): void {
    this.latencies.length = 0;
    this.problems.length = 0;
  }

  async stop(): Promise<void> {
    this.#running = false;
    await this.#done;
  }
}

/** `http://host:port/graphql` → `http://host:port`. */
export function baseUrlOf(graphqlUrl: string): string {
  return new URL(graphqlUrl).origin;
}
