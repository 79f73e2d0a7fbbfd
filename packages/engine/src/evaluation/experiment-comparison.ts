import type { Score } from "./scorers/scorer.js";

/** One row's scores in an experiment, as comparisons read them. */
export interface RowScores {
  rowId: string;
  scores: readonly Score[];
}

/** One dataset row compared across two experiments: `a` the baseline, `b` the candidate. */
export interface RowComparison {
  rowId: string;
  /** Null when the experiment has no result for the row (not run: cancelled before it). */
  scoresA: readonly Score[] | null;
  scoresB: readonly Score[] | null;
  /** Mean score of b minus a's, over the scorers both have; null when either has no result. */
  delta: number | null;
  /** Some scorer both have passed in a and fails in b. */
  regressed: boolean;
  /** Some scorer both have failed in a and passes in b, and none regressed. */
  improved: boolean;
}

export interface ExperimentComparisonRows {
  rows: RowComparison[];
  regressions: number;
  improvements: number;
}

/**
 * Compares two experiments row by row in one pass over each (a map of b's rows by id), in the order of
 * `rowOrder` (the dataset's). A regression is a scorer's pass turned into a fail; a score that drops
 * but stays above its threshold is not one (it shows in `delta`). A row only one side has is listed,
 * neither regressed nor improved.
 */
export function compareRowScores(rowOrder: readonly string[], a: Iterable<RowScores>, b: Iterable<RowScores>): ExperimentComparisonRows {
  const byIdA = new Map<string, readonly Score[]>();
  for (const row of a) byIdA.set(row.rowId, row.scores);
  const byIdB = new Map<string, readonly Score[]>();
  for (const row of b) byIdB.set(row.rowId, row.scores);
  const rows: RowComparison[] = [];
  let regressions = 0;
  let improvements = 0;
  for (const rowId of rowOrder) {
    const scoresA = byIdA.get(rowId) ?? null;
    const scoresB = byIdB.get(rowId) ?? null;
    if (!scoresA && !scoresB) continue;
    const compared = scoresA && scoresB ? compareScores(scoresA, scoresB) : { delta: null, regressed: false, improved: false };
    if (compared.regressed) regressions += 1;
    if (compared.improved) improvements += 1;
    rows.push({ rowId, scoresA, scoresB, ...compared });
  }
  return { rows, regressions, improvements };
}

function compareScores(a: readonly Score[], b: readonly Score[]): Pick<RowComparison, "delta" | "regressed" | "improved"> {
  const before = new Map(a.map((score) => [score.scorer, score]));
  let sumA = 0;
  let sumB = 0;
  let common = 0;
  let regressed = false;
  let gained = false;
  for (const after of b) {
    const prior = before.get(after.scorer);
    if (!prior) continue;
    common += 1;
    sumA += prior.score;
    sumB += after.score;
    if (prior.pass && !after.pass) regressed = true;
    if (!prior.pass && after.pass) gained = true;
  }
  return { delta: common === 0 ? null : round((sumB - sumA) / common), regressed, improved: gained && !regressed };
}

function round(value: number): number {
  return Math.round(value * 1e9) / 1e9;
}
