import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * A full garbage collection before each measurement, so one engine's (or one size's) garbage is not
 * collected on the next one's time. `--expose-gc` is switched on at run time, which makes `gc` available
 * to new contexts.
 */
setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

export interface Measurement {
  /** Median wall time of one run, in milliseconds. */
  medianMs: number;
  minMs: number;
  /** 95th percentile of the timed runs' wall time. */
  p95Ms: number;
  /** Median CPU time (user + system, this process) of one run: what the run cost the machine, waits aside. */
  cpuMedianMs: number;
  iterations: number;
  /** Set when the budget ran out before the planned iterations. */
  truncated: boolean;
}

export interface MeasurePlan {
  warmup: number;
  iterations: number;
  /** Stop early (keeping at least one timed run) once this much time has been spent. */
  budgetMs: number;
}

/** Warm-up runs, then timed runs; the median resists the noise of a shared machine. */
export async function measure(run: () => Promise<unknown>, plan: MeasurePlan): Promise<Measurement> {
  collectGarbage();
  const started = performance.now();
  for (let i = 0; i < plan.warmup && performance.now() - started < plan.budgetMs / 2; i += 1) await run();
  const samples: number[] = [];
  const cpu: number[] = [];
  while (samples.length < plan.iterations) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await run();
    samples.push(performance.now() - t0);
    const used = process.cpuUsage(c0);
    cpu.push((used.user + used.system) / 1000);
    if (performance.now() - started > plan.budgetMs) break;
  }
  samples.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return {
    medianMs: samples[Math.floor(samples.length / 2)]!,
    minMs: samples[0]!,
    p95Ms: percentile(samples, 95),
    cpuMedianMs: cpu[Math.floor(cpu.length / 2)]!,
    iterations: samples.length,
    truncated: samples.length < plan.iterations,
  };
}

export function planFor(size: number): MeasurePlan {
  if (size <= 10) return { warmup: 100, iterations: 300, budgetMs: 20_000 };
  if (size <= 100) return { warmup: 30, iterations: 60, budgetMs: 30_000 };
  if (size <= 1000) return { warmup: 3, iterations: 10, budgetMs: 60_000 };
  return { warmup: 1, iterations: 3, budgetMs: 180_000 };
}

/** The p-th percentile (nearest rank) of ascending samples; NaN for none. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}
