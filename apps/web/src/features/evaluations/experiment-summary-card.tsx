"use client";

import type { ExperimentSummaryFieldsFragment } from "@/gql/graphql";
import { useT } from "@/i18n/i18n-provider";
import { formatCost, formatLatency, formatRate, formatScore } from "./experiment-format";

/** The summary: rows done and failed, each scorer's mean and pass rate, latency percentiles, tokens, cost. */
export function ExperimentSummaryCard({ summary }: { summary: ExperimentSummaryFieldsFragment }) {
  const t = useT();
  const facts: [string, string][] = [
    [t("evaluations.summary.rows"), String(summary.rows)],
    [t("evaluations.summary.completed"), String(summary.completed)],
    [t("evaluations.summary.failed"), String(summary.failed)],
    [t("evaluations.summary.p50"), formatLatency(summary.latencyP50Ms)],
    [t("evaluations.summary.p95"), formatLatency(summary.latencyP95Ms)],
    [t("evaluations.summary.tokens"), String(summary.tokens)],
    [t("evaluations.summary.cost"), formatCost(summary.costUsd)],
  ];
  return (
    <section className="eval-summary" aria-label={t("evaluations.summary.title")} data-testid="experiment-summary">
      <div className="run-summary">
        {facts.map(([label, value]) => (
          <div key={label}>
            <span>{label}</span>
            <span>{value}</span>
          </div>
        ))}
      </div>
      <table className="table eval-scores">
        <thead>
          <tr>
            <th>{t("evaluations.summary.scorer")}</th>
            <th className="num">{t("evaluations.summary.mean")}</th>
            <th className="num">{t("evaluations.summary.passRate")}</th>
          </tr>
        </thead>
        <tbody>
          {summary.scores.map((score) => (
            <tr key={score.scorer} data-scorer={score.scorer}>
              <td translate="no">{score.scorer}</td>
              <td className="num">{formatScore(score.mean)}</td>
              <td className="num">{formatRate(score.passRate)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
