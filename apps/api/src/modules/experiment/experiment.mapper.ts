import type { Score } from "@weft/engine";
import type { Experiment as ExperimentRow, ExperimentResult as ExperimentResultRow } from "../../generated/prisma/client.js";
import type { ExperimentObject, ExperimentResultObject } from "./experiment.type.js";

export function toExperimentObject(row: ExperimentRow): ExperimentObject {
  return {
    id: row.id,
    workflowId: row.workflowId,
    version: row.versionNumber,
    draft: row.draft,
    datasetId: row.datasetId,
    datasetRevision: row.datasetRevision,
    status: row.status,
    scorers: row.scorers,
    concurrency: row.concurrency,
    error: row.error,
    createdAt: row.createdAt,
    finishedAt: row.finishedAt,
    rows: row.rows,
  };
}

/** Scores as stored (a JSON list written by the runner from the engine's Score). */
export function storedScores(value: unknown): Score[] {
  return Array.isArray(value) ? (value as Score[]) : [];
}

export function toExperimentResultObject(row: ExperimentResultRow, expected: unknown): ExperimentResultObject {
  const error = row.error as { code?: string; message?: string } | null;
  return {
    rowId: row.rowId,
    position: row.position,
    runId: row.runId,
    output: row.output,
    expected,
    completed: row.completed,
    latencyMs: row.latencyMs,
    tokens: row.tokens,
    error: error ? `${error.code ?? "ERROR"}: ${error.message ?? ""}` : null,
    scores: storedScores(row.scores),
  };
}
