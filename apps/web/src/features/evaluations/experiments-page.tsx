"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useQuery } from "urql";
import type { ExperimentFieldsFragment } from "@/gql/graphql";
import { useI18n } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { EmptyState, ErrorState, LoadingState, QueryError } from "@/ui/state-views";
import { formatDateTime } from "../runs/status/format-duration";
import { WorkflowExperimentsQuery } from "./evaluations.operations";
import { ExperimentStatusBadge, useTargetName } from "./experiment-status";
import { formatRate, formatScore } from "./experiment-format";
import { comparisonPair, togglePick, type PickedExperiment } from "./experiment-pick";
import { LIST_PAGE_SIZE, PageFooter, usePageCursors } from "./page-cursors";
import { PublishGateForm } from "./publish-gate-form";
import { StartExperimentForm } from "./start-experiment-form";
import "../admin-pages.css";
import "./evaluations.css";

/**
 * A workflow's evaluations: start an experiment (the draft or a version), its experiments newest first
 * (two of them picked for a comparison), and the publish gate's settings.
 */
export function ExperimentsPage({ workflowId, initialVersion }: { workflowId: string; initialVersion: number | null }) {
  const { t } = useI18n();
  const router = useRouter();
  const pages = usePageCursors();
  const [picked, setPicked] = useState<PickedExperiment[]>([]);
  const [{ data, fetching, error }, refetch] = useQuery({ query: WorkflowExperimentsQuery, variables: { workflowId, after: pages.after }, requestPolicy: "cache-and-network" });
  const reload = () => refetch({ requestPolicy: "network-only" });
  if (error && !data) return <QueryError error={error} onRetry={reload} />;
  if (fetching && !data) return <LoadingState />;
  const workflow = data?.workflow;
  if (!data || !workflow) return <ErrorState message={t("editor.notFound")} />;
  const datasets = data.datasets.edges.map((edge) => edge.node);
  const versions = workflow.versions.edges.map((edge) => edge.node.number).sort((a, b) => b - a);
  const experiments = data.experiments.edges.map((edge) => edge.node);
  const datasetName = new Map(datasets.map((dataset) => [dataset.id, dataset.name]));
  const pair = comparisonPair(picked);
  const compare = () => {
    if (pair) router.push(`/workflows/${workflowId}/experiments/compare?a=${pair.a}&b=${pair.b}`);
  };

  return (
    <div className="page">
      <div className="page__header">
        <h1>{t("evaluations.experiments.title", { name: workflow.name })}</h1>
        <Link href={`/workflows/${workflowId}`}>← {t("evaluations.experiments.back")}</Link>
      </div>
      <p className="hint">{t("evaluations.experiments.intro")}</p>
      {datasets.length === 0 ? (
        <EmptyState action={<Link href="/datasets">{t("evaluations.experiments.toDatasets")}</Link>}>{t("evaluations.experiments.noDatasets")}</EmptyState>
      ) : (
        <StartExperimentForm workflowId={workflowId} datasets={datasets} versions={versions} initialVersion={initialVersion} />
      )}
      <h2>{t("evaluations.experiments.list")}</h2>
      {experiments.length === 0 ? (
        <EmptyState>{t("evaluations.experiments.empty")}</EmptyState>
      ) : (
        <>
          <div className="row eval-compare-bar">
            <span className="hint">{t("evaluations.experiments.pickTwo")}</span>
            <Button variant="primary" disabled={pair === null} onClick={compare}>
              {t("evaluations.experiments.compare")}
            </Button>
          </div>
          <ExperimentTable experiments={experiments} datasetName={datasetName} picked={picked} onToggle={(experiment) => setPicked((list) => togglePick(list, experiment))} workflowId={workflowId} />
          <PageFooter pages={pages} pageSize={LIST_PAGE_SIZE} shown={experiments.length} total={data.experiments.totalCount} hasNextPage={data.experiments.pageInfo.hasNextPage} endCursor={data.experiments.pageInfo.endCursor} />
        </>
      )}
      <PublishGateForm workflowId={workflowId} gate={workflow.publishGate ?? null} datasets={datasets} onSaved={reload} />
    </div>
  );
}

interface ExperimentTableProps {
  workflowId: string;
  experiments: readonly ExperimentFieldsFragment[];
  datasetName: ReadonlyMap<string, string>;
  picked: readonly PickedExperiment[];
  onToggle: (experiment: ExperimentFieldsFragment) => void;
}

function ExperimentTable({ workflowId, experiments, datasetName, picked, onToggle }: ExperimentTableProps) {
  const { t, language } = useI18n();
  const targetName = useTargetName();
  return (
    <table className="table" aria-label={t("evaluations.experiments.list")}>
      <thead>
        <tr>
          <th>{t("evaluations.experiments.col.pick")}</th>
          <th>{t("evaluations.experiments.col.started")}</th>
          <th>{t("evaluations.experiments.col.target")}</th>
          <th>{t("evaluations.experiments.col.dataset")}</th>
          <th>{t("evaluations.experiments.col.status")}</th>
          <th>{t("evaluations.experiments.col.scores")}</th>
        </tr>
      </thead>
      <tbody>
        {experiments.map((experiment) => (
          <tr key={experiment.id} data-experiment={experiment.id}>
            <td>
              <input type="checkbox" checked={picked.some((one) => one.id === experiment.id)} onChange={() => onToggle(experiment)} aria-label={t("evaluations.experiments.pickOne", { target: targetName(experiment) })} />
            </td>
            <td>
              <Link href={`/workflows/${workflowId}/experiments/${experiment.id}`}>{formatDateTime(experiment.createdAt, language)}</Link>
            </td>
            <td>{targetName(experiment)}</td>
            <td translate="no">{datasetName.get(experiment.datasetId) ?? experiment.datasetId}</td>
            <td>
              <ExperimentStatusBadge status={experiment.status} progress={experiment.progress} />
            </td>
            <td translate="no">
              {experiment.summary.scores.map((score) => `${score.scorer} ${formatScore(score.mean)} (${formatRate(score.passRate)})`).join(" · ")}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
