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
  const [after, setAfter] = useState<string | null>(null);
  const [picked, setPicked] = useState<string[]>([]);
  const [{ data, fetching, error }, refetch] = useQuery({ query: WorkflowExperimentsQuery, variables: { workflowId, after }, requestPolicy: "cache-and-network" });
  const reload = () => refetch({ requestPolicy: "network-only" });
  if (error && !data) return <QueryError error={error} onRetry={reload} />;
  if (fetching && !data) return <LoadingState />;
  const workflow = data?.workflow;
  if (!data || !workflow) return <ErrorState message={t("editor.notFound")} />;
  const datasets = data.datasets.edges.map((edge) => edge.node);
  const versions = workflow.versions.edges.map((edge) => edge.node.number).sort((a, b) => b - a);
  const experiments = data.experiments.edges.map((edge) => edge.node);
  const datasetName = new Map(datasets.map((dataset) => [dataset.id, dataset.name]));
  const toggle = (id: string) => setPicked((list) => (list.includes(id) ? list.filter((item) => item !== id) : [...list.slice(-1), id]));
  // The older of the two is the baseline (a), the newer the candidate (b).
  const compare = () => {
    const [b, a] = experiments.filter((experiment) => picked.includes(experiment.id)).map((experiment) => experiment.id);
    if (a && b) router.push(`/workflows/${workflowId}/experiments/compare?a=${a}&b=${b}`);
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
            <Button variant="primary" disabled={picked.length !== 2} onClick={compare}>
              {t("evaluations.experiments.compare")}
            </Button>
          </div>
          <ExperimentTable experiments={experiments} datasetName={datasetName} picked={picked} onToggle={toggle} workflowId={workflowId} />
        </>
      )}
      {data.experiments.pageInfo.hasNextPage ? <Button onClick={() => setAfter(data.experiments.pageInfo.endCursor ?? null)}>{t("evaluations.more")}</Button> : null}
      <PublishGateForm workflowId={workflowId} gate={workflow.publishGate ?? null} datasets={datasets} onSaved={reload} />
    </div>
  );
}

interface ExperimentTableProps {
  workflowId: string;
  experiments: readonly ExperimentFieldsFragment[];
  datasetName: ReadonlyMap<string, string>;
  picked: readonly string[];
  onToggle: (id: string) => void;
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
              <input type="checkbox" checked={picked.includes(experiment.id)} onChange={() => onToggle(experiment.id)} aria-label={t("evaluations.experiments.pickOne", { target: targetName(experiment) })} />
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
