import { compareRowScores, type ExperimentSummary, type ResultFigures } from "@weft/engine";
import type { PrismaClient } from "../../generated/prisma/client.js";
import { failure, success, type Outcome } from "../../errors/outcome.js";
import { notFoundError, userError } from "../../errors/user-error.type.js";
import { isUuid } from "../common/uuid.js";
import { storedScores, toExperimentObject } from "./experiment.mapper.js";
import type { ExperimentComparisonObject, ExperimentObject } from "./experiment.type.js";

/** An experiment's summary from its results (experiment.service.ts `summarize`). */
export type Summarize = (experiment: ExperimentObject, results: readonly ResultFigures[]) => ExperimentSummary;

/** The columns of a result that a comparison and a summary read. */
export const RESULT_FIGURES = { completed: true, latencyMs: true, tokens: true, costUsd: true, scores: true } as const;

/**
 * compareExperiments (SPEC-V3 §4): two experiments on the same dataset, row by row — one query for each
 * experiment's results and one pass over them (the engine's compareRowScores) — and their summaries from
 * the same rows (reading them again for the summaries doubled the comparison's database work).
 */
export async function compareExperiments(db: PrismaClient, summarize: Summarize, a: string, b: string): Promise<Outcome<ExperimentComparisonObject>> {
  const [rowA, rowB] = await Promise.all([isUuid(a) ? db.experiment.findUnique({ where: { id: a } }) : null, isUuid(b) ? db.experiment.findUnique({ where: { id: b } }) : null]);
  if (!rowA) return failure(notFoundError("experiment", a, ["a"]));
  if (!rowB) return failure(notFoundError("experiment", b, ["b"]));
  if (rowA.datasetId !== rowB.datasetId) return failure(userError("VALIDATION_FAILED", "the two experiments ran on different datasets: their rows cannot be compared", { path: ["b"] }));
  const select = { rowId: true, position: true, ...RESULT_FIGURES } as const;
  const [resultsA, resultsB] = await Promise.all([
    db.experimentResult.findMany({ where: { experimentId: a }, select, orderBy: { position: "asc" } }),
    db.experimentResult.findMany({ where: { experimentId: b }, select, orderBy: { position: "asc" } }),
  ]);
  const order = [...new Map([...resultsA, ...resultsB].map((row) => [row.rowId, row.position])).entries()].sort((x, y) => x[1] - y[1]).map(([rowId]) => rowId);
  const withScores = (row: (typeof resultsA)[number]) => ({ ...row, scores: storedScores(row.scores) });
  const [scoredA, scoredB] = [resultsA.map(withScores), resultsB.map(withScores)];
  const compared = compareRowScores(order, scoredA, scoredB);
  const objectA = toExperimentObject(rowA);
  const objectB = toExperimentObject(rowB);
  const [summaryA, summaryB] = [summarize(objectA, scoredA), summarize(objectB, scoredB)];
  return success({
    a: objectA,
    b: objectB,
    summaryA,
    summaryB,
    regressions: compared.regressions,
    improvements: compared.improvements,
    rows: compared.rows.map((row) => ({ ...row, scoresA: row.scoresA ? [...row.scoresA] : null, scoresB: row.scoresB ? [...row.scoresB] : null })),
  });
}
