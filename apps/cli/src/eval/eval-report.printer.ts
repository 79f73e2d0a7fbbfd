import { minimumOf, type Minimum } from "./eval-arguments.js";
import type { EvalOutcome } from "./experiment-session.js";
import type { ResultRow } from "./experiment-operations.js";

/** Failing rows the table lists (the JSON report has up to MAX_FAILING_ROWS). */
const ROWS_IN_TABLE = 10;
const REASON_CHARS = 120;

export interface ScorerVerdict {
  scorer: string;
  mean: number | null;
  passRate: number | null;
  /** The pass rate it must reach (`--min`); null: none. */
  min: number | null;
  /** False when below its minimum (a pass rate of null — no row done — is below any minimum). */
  met: boolean;
}

/** Each scorer against its minimum; the evaluation passes when the experiment completed and every one is met. */
export function judge(outcome: EvalOutcome, minimums: readonly Minimum[]): { verdicts: ScorerVerdict[]; passed: boolean } {
  const completed = outcome.experiment.status === "COMPLETED";
  const verdicts = outcome.experiment.summary.scores.map(({ scorer, mean, passRate }) => {
    const min = minimumOf(scorer, minimums);
    return { scorer, mean, passRate, min, met: min === null || (passRate !== null && passRate >= min) };
  });
  return { verdicts, passed: completed && verdicts.every((verdict) => verdict.met) };
}

/** The `--json` report: one object, the same fields as the table. */
export function jsonReport(outcome: EvalOutcome, verdicts: ScorerVerdict[], passed: boolean): Record<string, unknown> {
  const { experiment } = outcome;
  return {
    passed,
    experiment: { id: experiment.id, workflowId: experiment.workflowId, version: experiment.version, draft: experiment.draft, datasetId: experiment.datasetId, status: experiment.status, error: experiment.error },
    summary: { ...experiment.summary, scores: verdicts },
    failingRowCount: outcome.failingRowCount,
    failingRows: outcome.failingRows,
    uploaded: outcome.uploaded,
  };
}

/** The table for people: the summary, each scorer against its minimum, and the first failing rows. */
export function textReport(outcome: EvalOutcome, verdicts: ScorerVerdict[], passed: boolean): string[] {
  const { experiment } = outcome;
  const { summary } = experiment;
  const what = experiment.draft ? "the draft" : `version ${experiment.version}`;
  const lines = [
    `experiment ${experiment.id}: ${what} of workflow ${experiment.workflowId} over dataset ${experiment.datasetId}`,
    `${experiment.status}${experiment.error ? ` (${experiment.error})` : ""}: ${summary.rows} rows, ${summary.completed} completed, ${summary.failed} failed`,
    "",
    ...table([["scorer", "mean", "pass rate", "minimum", ""], ...verdicts.map(verdictCells)]),
    "",
    [
      `latency p50 ${milliseconds(summary.latencyP50Ms)}, p95 ${milliseconds(summary.latencyP95Ms)}`,
      `tokens ${summary.tokens}`,
      `cost ${summary.costUsd === null ? "unknown" : `$${summary.costUsd.toFixed(4)}`}`,
    ].join("; "),
  ];
  if (outcome.failingRowCount > 0) {
    lines.push("", `rows that failed (${outcome.failingRowCount}):`);
    for (const row of outcome.failingRows.slice(0, ROWS_IN_TABLE)) lines.push(`  row ${row.position}: ${failure(row)}`);
    if (outcome.failingRowCount > ROWS_IN_TABLE) lines.push(`  … and ${outcome.failingRowCount - ROWS_IN_TABLE} more (--json lists them)`);
  }
  if (outcome.uploaded.kept && (outcome.uploaded.workflowId || outcome.uploaded.datasetId)) {
    lines.push("", `kept: ${[outcome.uploaded.workflowId && `workflow ${outcome.uploaded.workflowId}`, outcome.uploaded.datasetId && `dataset ${outcome.uploaded.datasetId}`].filter(Boolean).join(", ")}`);
  }
  lines.push("", verdictLine(experiment.status, verdicts, passed));
  return lines;
}

function verdictLine(status: string, verdicts: ScorerVerdict[], passed: boolean): string {
  if (passed) return "PASSED";
  if (status !== "COMPLETED") return `NOT PASSED: the experiment ended ${status} before every row was scored`;
  return `FAILED: ${verdicts.filter((verdict) => !verdict.met).map((verdict) => verdict.scorer).join(", ")} below the minimum`;
}

function verdictCells(verdict: ScorerVerdict): string[] {
  return [verdict.scorer, verdict.mean === null ? "-" : verdict.mean.toFixed(3), percent(verdict.passRate), verdict.min === null ? "-" : `≥ ${percent(verdict.min)}`, verdict.met ? "ok" : "BELOW"];
}

function failure(row: ResultRow): string {
  if (!row.completed) return clip(row.error ?? "did not complete");
  return row.scores
    .filter((score) => !score.pass)
    .map((score) => `${score.scorer} ${score.score.toFixed(2)} — ${clip(score.reason)}`)
    .join("; ");
}

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd());
}

function percent(rate: number | null): string {
  return rate === null ? "-" : `${(rate * 100).toFixed(1)}%`;
}

function milliseconds(value: number | null): string {
  return value === null ? "-" : `${Math.round(value)} ms`;
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, " ");
  return line.length > REASON_CHARS ? `${line.slice(0, REASON_CHARS - 1)}…` : line;
}
