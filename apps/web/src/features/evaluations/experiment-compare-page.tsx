"use client";

import Link from "next/link";
import { useState } from "react";
import { useQuery } from "urql";
import type { CompareExperimentsQuery, ExperimentSummaryFieldsFragment } from "@/gql/graphql";
import { useT } from "@/i18n/i18n-provider";
import { LoadingState, QueryError } from "@/ui/state-views";
import { CompareExperimentsQuery as CompareQuery } from "./evaluations.operations";
import { formatDelta, formatExpected, formatRate, formatScore } from "./experiment-format";
import { useTargetName } from "./experiment-status";
import { ScoreCell } from "./score-cell";
import "../admin-pages.css";
import "./evaluations.css";

type Comparison = CompareExperimentsQuery["compareExperiments"];
type Side = Comparison["a"];

/**
 * Two experiments on one dataset row by row (compareExperiments; a: the baseline, b: the candidate):
 * the rows that regressed (a scorer a passed fails in b) and improved highlighted, every scorer's
 * verdict on both sides, and the two summaries.
 */
export function ExperimentComparePage({ workflowId, a, b }: { workflowId: string; a: string; b: string }) {
  const t = useT();
  const targetName = useTargetName();
  const [regressionsOnly, setRegressionsOnly] = useState(false);
  const [{ data, fetching, error }, refetch] = useQuery({ query: CompareQuery, variables: { a, b } });
  if (error) return <QueryError error={error} onRetry={() => refetch({ requestPolicy: "network-only" })} />;
  if (fetching || !data) return <LoadingState />;
  const comparison = data.compareExperiments;
  const rows = regressionsOnly ? comparison.rows.filter((row) => row.regressed) : comparison.rows;
  return (
    <div className="page">
      <div className="page__header">
        <h1>{t("evaluations.compare.title", { a: targetName(comparison.a), b: targetName(comparison.b) })}</h1>
      </div>
      <p className="hint">
        <Link href={`/workflows/${workflowId}/experiments`}>{t("evaluations.experiment.back")}</Link> · <Link href={`/workflows/${workflowId}/experiments/${comparison.a.id}`}>{t("evaluations.compare.baseline", { target: targetName(comparison.a) })}</Link> ·{" "}
        <Link href={`/workflows/${workflowId}/experiments/${comparison.b.id}`}>{t("evaluations.compare.candidate", { target: targetName(comparison.b) })}</Link>
      </p>
      <div className="row eval-compare-counts" data-testid="compare-counts">
        <span className="badge badge--failed" data-testid="regressions">{t("evaluations.compare.regressions", { count: comparison.regressions })}</span>
        <span className="badge badge--completed" data-testid="improvements">{t("evaluations.compare.improvements", { count: comparison.improvements })}</span>
        <label className="check">
          <input type="checkbox" checked={regressionsOnly} onChange={(event) => setRegressionsOnly(event.target.checked)} />
          {t("evaluations.compare.regressionsOnly")}
        </label>
      </div>
      <SummariesSideBySide a={comparison.summaryA} b={comparison.summaryB} />
      <CompareRowsTable comparison={comparison} rows={rows} />
    </div>
  );
}

function SummariesSideBySide({ a, b }: { a: ExperimentSummaryFieldsFragment; b: ExperimentSummaryFieldsFragment }) {
  const t = useT();
  const scorers = [...new Set([...a.scores, ...b.scores].map((score) => score.scorer))];
  const of = (summary: ExperimentSummaryFieldsFragment, scorer: string) => summary.scores.find((score) => score.scorer === scorer);
  return (
    <table className="table eval-scores" aria-label={t("evaluations.summary.title")}>
      <thead>
        <tr>
          <th>{t("evaluations.summary.scorer")}</th>
          <th className="num">{t("evaluations.compare.meanA")}</th>
          <th className="num">{t("evaluations.compare.meanB")}</th>
          <th className="num">{t("evaluations.compare.passA")}</th>
          <th className="num">{t("evaluations.compare.passB")}</th>
        </tr>
      </thead>
      <tbody>
        {scorers.map((scorer) => (
          <tr key={scorer}>
            <td translate="no">{scorer}</td>
            <td className="num">{formatScore(of(a, scorer)?.mean)}</td>
            <td className="num">{formatScore(of(b, scorer)?.mean)}</td>
            <td className="num">{formatRate(of(a, scorer)?.passRate)}</td>
            <td className="num">{formatRate(of(b, scorer)?.passRate)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Each row: its outputs on both sides (for the first 100 rows), its expected value, the verdicts, the change. */
function CompareRowsTable({ comparison, rows }: { comparison: Comparison; rows: Comparison["rows"] }) {
  const t = useT();
  const resultsOf = (side: Side) => new Map(side.results.edges.map((edge) => [edge.node.rowId, edge.node]));
  const [resultsA, resultsB] = [resultsOf(comparison.a), resultsOf(comparison.b)];
  const scorers = [...new Set(comparison.rows.flatMap((row) => [...(row.scoresA ?? []), ...(row.scoresB ?? [])].map((score) => score.scorer)))];
  return (
    <table className="table eval-table" aria-label={t("evaluations.compare.rows")}>
      <thead>
        <tr>
          <th className="num">#</th>
          <th>{t("evaluations.compare.change")}</th>
          <th>{t("evaluations.compare.outputA")}</th>
          <th>{t("evaluations.compare.outputB")}</th>
          <th>{t("evaluations.results.expected")}</th>
          {scorers.flatMap((scorer) => [
            <th key={`${scorer}-a`} translate="no">{`${scorer} (a)`}</th>,
            <th key={`${scorer}-b`} translate="no">{`${scorer} (b)`}</th>,
          ])}
          <th className="num">{t("evaluations.compare.delta")}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const [resultA, resultB] = [resultsA.get(row.rowId), resultsB.get(row.rowId)];
          const change = row.regressed ? "regressed" : row.improved ? "improved" : "same";
          return (
            <tr key={row.rowId} className={`eval-row--${change}`} data-change={change} data-position={resultB?.position ?? resultA?.position}>
              <td className="num">{resultB?.position ?? resultA?.position ?? "—"}</td>
              <td>{t(`evaluations.compare.${change}`)}</td>
              <td className="eval-cell" translate="no">{resultA ? (resultA.output ?? resultA.error) : "—"}</td>
              <td className="eval-cell" translate="no">{resultB ? (resultB.output ?? resultB.error) : "—"}</td>
              <td className="eval-cell" translate="no">{formatExpected(resultB?.expected ?? resultA?.expected)}</td>
              {scorers.flatMap((scorer) => [
                <ScoreCell key={`${scorer}-a`} score={row.scoresA?.find((score) => score.scorer === scorer)} />,
                <ScoreCell key={`${scorer}-b`} score={row.scoresB?.find((score) => score.scorer === scorer)} />,
              ])}
              <td className="num">{formatDelta(row.delta)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
