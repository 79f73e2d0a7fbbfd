"use client";

import Link from "next/link";
import { useEffect, useMemo, useRef, useState } from "react";
import { useMutation, useQuery } from "urql";
import { useI18n } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { ErrorState, LoadingState, QueryError } from "@/ui/state-views";
import { useToast } from "@/ui/toast";
import { isTerminalRunStatus, type RunStatusValue } from "../live/run-projection";
import { useLiveRun } from "../live/use-live-run";
import { CancelRunMutation, RunDetailQuery } from "../runs.operations";
import { StatusBadge, type AnyStatus } from "../status/status-badge";
import { elapsedMs, formatDateTime, formatDuration } from "../status/format-duration";
import { RunTimeline, type TimelineRow } from "../timeline/run-timeline";
import { NodeRunDetails } from "./node-run-details";
import { RunEventLog } from "./run-event-log";
import { RunGraph } from "./run-graph";
import { LiveStreamIndicator } from "./live-stream-indicator";
import { readSnapshotGraph, readSnapshotName } from "./run-snapshot";
import "../../admin-pages.css";

export function RunDetailPage({ runId }: { runId: string }) {
  const { t, language } = useI18n();
  const toast = useToast();
  const [{ data, fetching, error }, refetch] = useQuery({ query: RunDetailQuery, variables: { id: runId } });
  const [cancelState, cancel] = useMutation(CancelRunMutation);
  const [selected, setSelected] = useState<string | null>(null);
  const run = data?.run ?? null;
  const live = useLiveRun(runId, run ? { status: run.status, events: run.events } : null);

  // Persisted node details arrive as nodes settle; fetch them again then (the events carry less).
  const settled = useRef<string | null>(null);
  useEffect(() => {
    if (settled.current !== null && settled.current !== live.settledKey) refetch({ requestPolicy: "network-only" });
    settled.current = live.settledKey;
  }, [live.settledKey, refetch]);

  // Refetches return a new snapshot object with the same content; the graph is rebuilt only when the
  // content changes, so the canvas keeps its layout and measurements.
  const snapshotJson = run ? JSON.stringify(run.snapshot) : null;
  const graph = useMemo(() => readSnapshotGraph(snapshotJson ? JSON.parse(snapshotJson) : null), [snapshotJson]);
  const records = useMemo(() => new Map((run?.nodeRuns ?? []).map((n) => [n.nodeId, n])), [run?.nodeRuns]);
  const statuses = useMemo(() => {
    const map: Record<string, AnyStatus> = {};
    for (const node of graph.nodes) map[node.id] = live.state.nodes[node.id]?.status ?? records.get(node.id)?.status ?? "PENDING";
    return map;
  }, [graph, live.state.nodes, records]);

  if (error && !run) return <QueryError error={error} onRetry={() => refetch({ requestPolicy: "network-only" })} />;
  if (!data && fetching) return <LoadingState />;
  if (!run) return <ErrorState message={t("runs.detail.notFound")} />;

  const status: RunStatusValue = isTerminalRunStatus(live.state.status) ? live.state.status : run.status;
  const active = !isTerminalRunStatus(status);
  // Until the user picks a node, show the one that most likely matters: a failed one, else one running.
  const focus =
    selected ??
    graph.nodes.find((n) => statuses[n.id] === "FAILED")?.id ??
    graph.nodes.find((n) => statuses[n.id] === "RUNNING")?.id ??
    null;
  const rows: TimelineRow[] = orderByStart(graph.nodes.map((node) => {
    const record = records.get(node.id);
    const liveNode = live.state.nodes[node.id];
    return {
      id: node.id,
      type: node.type,
      status: statuses[node.id] ?? "PENDING",
      startedAt: record?.startedAt ?? liveNode?.startedAt ?? null,
      finishedAt: record?.finishedAt ?? liveNode?.finishedAt ?? null,
    };
  }));
  const focusNode = focus ? graph.nodes.find((n) => n.id === focus) : undefined;
  const runError = run.error ?? live.state.error;

  async function cancelRun() {
    if (!window.confirm(t("runs.detail.cancelConfirm"))) return;
    const response = await cancel({ id: runId });
    const errors = response.data?.cancelRun.errors ?? [];
    if (response.error || errors.length > 0) {
      toast.show({ tone: "error", message: response.error?.message ?? errors.map((e) => e.message).join("; ") });
    } else {
      toast.show({ tone: "info", message: t("runs.detail.cancelled") });
    }
  }

  return (
    <div className="run-page">
      <div className="run-header">
        <Link href="/runs">← {t("runs.detail.back")}</Link>
        <h1>{t("runs.detail.title", { id: run.id.slice(0, 8) })}</h1>
        <StatusBadge status={status} />
        {active ? <LiveStreamIndicator stream={live.stream} /> : null}
        <span style={{ flex: 1 }} />
        {active ? (
          <Button variant="danger" busy={cancelState.fetching} onClick={() => void cancelRun()}>
            {t("runs.detail.cancel")}
          </Button>
        ) : null}
      </div>
      <div className="run-summary">
        <div>
          <span>{t("runs.detail.workflow")}</span>
          <Link href={`/workflows/${run.workflowId}`}>{readSnapshotName(run.snapshot) ?? run.workflowId}</Link>
        </div>
        <div>
          <span>{t("runs.detail.started")}</span>
          <span>{formatDateTime(run.startedAt ?? run.createdAt, language)}</span>
        </div>
        <div>
          <span>{t("runs.detail.finished")}</span>
          <span>{formatDateTime(run.finishedAt, language)}</span>
        </div>
        <div>
          <span>{t("runs.detail.duration")}</span>
          <span>{formatDuration(run.durationMs ?? elapsedMs(run.startedAt, run.finishedAt, Date.now()))}</span>
        </div>
        <div>
          <span>{t("runs.detail.tokens")}</span>
          <span>{t("runs.detail.tokensSplit", { total: run.totalTokens, prompt: run.promptTokens, completion: run.completionTokens })}</span>
        </div>
      </div>
      {runError ? (
        <p className="notice notice--error" role="alert">
          <strong>{t("runs.detail.error")}:</strong> {runError.code} — {runError.message}
        </p>
      ) : null}
      {live.state.warnings.length > 0 ? (
        <div className="notice notice--warning">
          <strong>{t("runs.detail.warnings")}</strong>
          <ul>
            {live.state.warnings.map((w) => (
              <li key={w.seq}>
                {w.nodeId ? <code>{w.nodeId}</code> : null} {w.code}: {w.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="run-grid">
        <div style={{ display: "flex", flexDirection: "column", gap: 12, minWidth: 0 }}>
          <section className="run-panel">
            <h3>{t("runs.detail.graph")}</h3>
            <RunGraph graph={graph} statuses={statuses} selected={focus} onSelect={setSelected} />
          </section>
          <section className="run-panel">
            <h3>{t("runs.detail.timeline")}</h3>
            <RunTimeline rows={rows} origin={run.startedAt ?? null} selected={focus} onSelect={setSelected} />
          </section>
          {run.result ?? live.state.result ? (
            <section className="run-panel">
              <h3>{t("runs.detail.result")}</h3>
              <pre className="pre">{run.result ?? live.state.result}</pre>
            </section>
          ) : null}
          <section className="run-panel">
            <h3>{t("runs.detail.events")}</h3>
            <RunEventLog events={live.events} />
          </section>
        </div>
        <section className="run-panel" aria-label={t("runs.detail.nodes")}>
          {focusNode ? (
            <NodeRunDetails nodeId={focusNode.id} nodeType={focusNode.type} record={records.get(focusNode.id) ?? null} live={live.state.nodes[focusNode.id] ?? null} />
          ) : (
            <p className="muted">{t("runs.detail.selectNode")}</p>
          )}
        </section>
      </div>
    </div>
  );
}

/** The timeline reads top to bottom in the order nodes started; nodes that never started go last. */
function orderByStart(rows: TimelineRow[]): TimelineRow[] {
  const key = (row: TimelineRow) => (row.startedAt ? Date.parse(row.startedAt) : Number.POSITIVE_INFINITY);
  return rows.map((row, i) => ({ row, i })).sort((a, b) => key(a.row) - key(b.row) || a.i - b.i).map(({ row }) => row);
}
