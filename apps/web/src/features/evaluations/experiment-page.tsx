"use client";

import Link from "next/link";
import { useState } from "react";
import { useMutation, useQuery } from "urql";
import { useI18n } from "@/i18n/i18n-provider";
import { useFormErrors } from "@/ui/user-errors";
import { useSocketFeed } from "@/lib/use-socket-feed";
import { Button } from "@/ui/button";
import { useThrottled } from "@/ui/use-throttled";
import { EmptyState, LoadingState, QueryError } from "@/ui/state-views";
import { formatDateTime } from "../runs/status/format-duration";
import { CancelExperimentMutation, ExperimentProgressSubscription, ExperimentQuery } from "./evaluations.operations";
import { ExperimentResultsTable } from "./experiment-results-table";
import { ExperimentStatusBadge, useTargetName } from "./experiment-status";
import { ExperimentSummaryCard } from "./experiment-summary-card";
import { scorerIds } from "./scorer-list";
import { UserErrorList } from "./user-error-list";
import { PageFooter, usePageCursors } from "./page-cursors";
import "../admin-pages.css";
import "./evaluations.css";

const PAGE_SIZE = 50;

/**
 * One experiment: its progress kept live by experimentProgress while it runs (each message refetches the
 * page, which also brings the new rows' results and the summary), cancellation, the summary and the
 * results page by page.
 */
export function ExperimentPage({ workflowId, experimentId }: { workflowId: string; experimentId: string }) {
  const { t, language } = useI18n();
  const targetName = useTargetName();
  const pages = usePageCursors();
  const [{ data, fetching, error }, refetch] = useQuery({ query: ExperimentQuery, variables: { id: experimentId, first: PAGE_SIZE, after: pages.after }, requestPolicy: "cache-and-network" });
  const reload = () => refetch({ requestPolicy: "network-only" });
  const reloadSoon = useThrottled(reload, 1000);
  const [live, setLive] = useState<{ completed: number; failed: number; rows: number } | null>(null);
  const running = data?.experiment?.status === "RUNNING";
  const connected = useSocketFeed(ExperimentProgressSubscription, { id: experimentId }, {
    onData: (message) => {
      setLive(message.experimentProgress);
      // The last message (the experiment ended) reloads at once: status, summary and the cancel button.
      if (message.experimentProgress.status === "RUNNING") reloadSoon();
      else reload();
    },
    onConnected: reload,
  });
  const [cancelling, cancel] = useMutation(CancelExperimentMutation);
  const cancellation = useFormErrors("evaluations.experiment.cancelFailed");

  if (error && !data) return <QueryError error={error} onRetry={reload} />;
  if (fetching && !data) return <LoadingState />;
  const experiment = data?.experiment;
  if (!experiment) return <EmptyState action={<Link href={`/workflows/${workflowId}/experiments`}>{t("evaluations.experiment.back")}</Link>}>{t("evaluations.experiment.notFound")}</EmptyState>;
  const progress = live ?? experiment.summary;
  const results = experiment.results.edges.map((edge) => edge.node);

  async function cancelExperiment() {
    const result = await cancel({ id: experimentId });
    if (cancellation.settle(result.error, result.data?.cancelExperiment.errors)) reload();
  }

  return (
    <div className="page">
      <div className="page__header">
        <h1>{t("evaluations.experiment.title", { target: targetName(experiment) })}</h1>
        <ExperimentStatusBadge status={experiment.status} progress={experiment.progress} />
        {running ? (
          <Button variant="danger" busy={cancelling.fetching} onClick={() => void cancelExperiment()}>
            {t("evaluations.experiment.cancel")}
          </Button>
        ) : null}
      </div>
      <p className="hint">
        <Link href={`/workflows/${workflowId}/experiments`}>{t("evaluations.experiment.back")}</Link> · <Link href={`/datasets/${experiment.datasetId}`}>{t("evaluations.experiment.dataset")}</Link> ·{" "}
        {t("evaluations.experiment.started", { at: formatDateTime(experiment.createdAt, language), concurrency: experiment.concurrency })}
        {running && connected ? <>{" "}<span className="live-dot" data-testid="experiment-live">{t("evaluations.experiment.live")}</span></> : null}
      </p>
      <UserErrorList errors={cancellation.errors} />
      {experiment.error ? <p className="notice notice--error" translate="no">{experiment.error}</p> : null}
      <div className="eval-progress" data-testid="experiment-progress">
        <progress max={Math.max(progress.rows, 1)} value={progress.completed + progress.failed} aria-label={t("evaluations.experiment.progress")} />
        <span>{t("evaluations.experiment.progressText", { done: progress.completed + progress.failed, rows: progress.rows, failed: progress.failed })}</span>
      </div>
      <ExperimentSummaryCard summary={experiment.summary} />
      <h2>{t("evaluations.experiment.results")}</h2>
      {results.length === 0 ? (
        <EmptyState>{t("evaluations.experiment.noResults")}</EmptyState>
      ) : (
        <ExperimentResultsTable results={results} scorers={scorerIds(experiment.scorers)} />
      )}
      <PageFooter pages={pages} pageSize={PAGE_SIZE} shown={results.length} total={experiment.results.totalCount} hasNextPage={experiment.results.pageInfo.hasNextPage} endCursor={experiment.results.pageInfo.endCursor} />
    </div>
  );
}
