import type { Score } from "./scorers/scorer.js";

/** One row's result as summaries and comparisons read it. */
export interface ResultFigures {
  /** The run completed (a failed or cancelled run scores 0 everywhere). */
  completed: boolean;
  /** Start to end of the run's execution; null when it never started. */
  latencyMs: number | null;
  tokens: number;
  costUsd: number | null;
  scores: readonly Score[];
}

export interface ScorerSummary {
  scorer: string;
  /** Mean score over the rows scored so far (failed runs count 0); null before any. */
  mean: number | null;
  /** Share of those rows that passed; null before any. */
  passRate: number | null;
}

/** An experiment's figures (SPEC-V3 §4 `summary`). */
export interface ExperimentSummary {
  /** Rows of the dataset the experiment runs. */
  rows: number;
  /** Rows whose run completed and was scored. */
  completed: number;
  /** Rows whose run failed or was cancelled (scored 0). */
  failed: number;
  scores: ScorerSummary[];
  /** Percentiles (nearest rank) of completed runs' latencies; null before any. */
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
  tokens: number;
  /** Summed over runs whose cost is known; null when none is. */
  costUsd: number | null;
}

/**
 * The summary of an experiment's results in one pass, scorers in `scorerIds` order. `rows` is the
 * dataset's row count (rows not run yet count in neither `completed` nor `failed`).
 */
export function summarizeResults(rows: number, scorerIds: readonly string[], results: Iterable<ResultFigures>): ExperimentSummary {
  const sums = new Map(scorerIds.map((id) => [id, { total: 0, passed: 0, count: 0 }]));
  const latencies: number[] = [];
  let completed = 0;
  let failed = 0;
  let tokens = 0;
  let cost: number | null = null;
  for (const result of results) {
    if (result.completed) completed += 1;
    else failed += 1;
    if (result.completed && result.latencyMs !== null) latencies.push(result.latencyMs);
    tokens += result.tokens;
    if (result.costUsd !== null) cost = (cost ?? 0) + result.costUsd;
    for (const score of result.scores) {
      const sum = sums.get(score.scorer);
      if (!sum) continue;
      sum.total += score.score;
      sum.count += 1;
      if (score.pass) sum.passed += 1;
    }
  }
  latencies.sort((x, y) => x - y);
  return {
    rows,
    completed,
    failed,
    scores: scorerIds.map((scorer) => {
      const sum = sums.get(scorer)!;
      return { scorer, mean: sum.count === 0 ? null : sum.total / sum.count, passRate: sum.count === 0 ? null : sum.passed / sum.count };
    }),
    latencyP50Ms: percentile(latencies, 0.5),
    latencyP95Ms: percentile(latencies, 0.95),
    tokens,
    costUsd: cost === null ? null : Math.round(cost * 1e9) / 1e9,
  };
}

/** Nearest-rank percentile of sorted values: the smallest value with at least q of them at or below it. */
export function percentile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[rank - 1]!;
}
