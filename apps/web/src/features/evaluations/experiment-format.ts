/**
 * How the evaluation pages write numbers: scores with two decimals, rates as percentages, latencies in
 * milliseconds or seconds, money in dollars; a missing value (no row done yet, no price) as a dash.
 */
import { formatUsd } from "@/ui/format-usd";

const DASH = "—";

export function formatScore(score: number | null | undefined): string {
  return score === null || score === undefined ? DASH : score.toFixed(2);
}

export function formatRate(rate: number | null | undefined): string {
  return rate === null || rate === undefined ? DASH : `${Math.round(rate * 100)}%`;
}

export function formatLatency(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return DASH;
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** Dollars as the rest of the UI writes them (formatUsd: to the cent or finer). */
export function formatCost(usd: number | null | undefined): string {
  return usd === null || usd === undefined ? DASH : formatUsd(usd);
}

/** A change of mean score, signed, so that "+0.50" and "-0.50" read as what they are. */
export function formatDelta(delta: number | null | undefined): string {
  if (delta === null || delta === undefined) return DASH;
  const fixed = delta.toFixed(2);
  return delta > 0 ? `+${fixed}` : fixed === "-0.00" ? "0.00" : fixed;
}

/** An expected value as text: text as it is, other JSON as JSON, none as a dash. */
export function formatExpected(expected: unknown): string {
  if (expected === null || expected === undefined) return DASH;
  return typeof expected === "string" ? expected : JSON.stringify(expected);
}
