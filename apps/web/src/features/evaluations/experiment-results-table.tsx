"use client";

import Link from "next/link";
import type { ExperimentQuery } from "@/gql/graphql";
import { useT } from "@/i18n/i18n-provider";
import { formatExpected, formatLatency } from "./experiment-format";
import { ScoreCell } from "./score-cell";

type Result = NonNullable<ExperimentQuery["experiment"]>["results"]["edges"][number]["node"];

/** Each row's output beside its expected value, then every scorer's score, pass and reason. */
export function ExperimentResultsTable({ results, scorers }: { results: readonly Result[]; scorers: readonly string[] }) {
  const t = useT();
  return (
    <table className="table eval-table" aria-label={t("evaluations.experiment.results")}>
      <thead>
        <tr>
          <th className="num">#</th>
          <th>{t("evaluations.results.output")}</th>
          <th>{t("evaluations.results.expected")}</th>
          {scorers.map((scorer) => (
            <th key={scorer} translate="no">
              {scorer}
            </th>
          ))}
          <th className="num">{t("evaluations.results.latency")}</th>
          <th>{t("evaluations.results.run")}</th>
        </tr>
      </thead>
      <tbody>
        {results.map((result) => (
          <tr key={result.rowId} data-position={result.position} data-completed={result.completed}>
            <td className="num">{result.position}</td>
            <td className="eval-cell" translate="no">
              {result.completed ? result.output : <span className="run-error">{result.error}</span>}
            </td>
            <td className="eval-cell" translate="no">
              {formatExpected(result.expected)}
            </td>
            {scorers.map((scorer) => (
              <ScoreCell key={scorer} score={result.scores.find((score) => score.scorer === scorer)} />
            ))}
            <td className="num">{formatLatency(result.latencyMs)}</td>
            <td>{result.runId ? <Link href={`/runs/${result.runId}`}>{t("evaluations.results.open")}</Link> : "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
