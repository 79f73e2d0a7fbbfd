"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { useQuery } from "urql";
import { useT } from "@/i18n/i18n-provider";
import { ErrorState, LoadingState, QueryError } from "@/ui/state-views";
import { isTerminalRunStatus, type RunStatusValue } from "../live/run-projection";
import { useLiveRun } from "../live/use-live-run";
import { RunDetailQuery } from "../runs.operations";
import { RunTimeline } from "../timeline/run-timeline";
import { NodeRunDetails } from "./node-run-details";
import { RunEventLog } from "./run-event-log";
import { NodeTypesProvider } from "../../node-types/node-types-context";
import { RunGraph } from "./run-graph";
import { RunHeader } from "./run-header";
import { snapshotGraphOf } from "./run-snapshot";
import { RunSummary } from "./run-summary";
import { buildRunView, latestRowOf } from "./run-view";
import { parseRowKey, rowKey } from "../live/row-key";
import { agentTrace, callIdOf, isToolCallInvocation, priceOf } from "../live/agent-trace";
import { AgentSteps, ToolCallOrigin } from "./agent-steps";
import { RunStateValues } from "./run-state-values";
import "../../admin-pages.css";
import { RichValue } from "../../../ui/rich-value";

export function RunDetailPage({ runId }: { runId: string }) {
  const t = useT();
  const [{ data, fetching, error }, refetch] = useQuery({ query: RunDetailQuery, variables: { id: runId } });
  const [selected, setSelected] = useState<string | null>(null);
  const run = data?.run ?? null;
  const live = useLiveRun(runId);

  // Persisted node details arrive as nodes settle; fetch them again then (the events carry less), at
  // most once a second while many settle (a map's items, a loop's iterations).
  const settled = useRef<string | null>(null);
  useEffect(() => {
    if (settled.current === null) {
      settled.current = live.settledKey;
      return;
    }
    if (settled.current === live.settledKey) return;
    settled.current = live.settledKey;
    const timer = setTimeout(() => refetch({ requestPolicy: "network-only" }), isTerminalRunStatus(live.state.status) ? 0 : 1000);
    return () => clearTimeout(timer);
  }, [live.settledKey, live.state.status, refetch]);

  // Refetches return new node and edge objects with the same content; the graph is rebuilt only when
  // the content changes, so the canvas keeps its layout and measurements.
  const graphJson = run ? JSON.stringify({ nodes: run.nodes, edges: run.edges }) : null;
  const graph = useMemo(() => snapshotGraphOf(graphJson ? JSON.parse(graphJson) : { nodes: [], edges: [] }), [graphJson]);
  const records = useMemo(() => run?.nodeRuns ?? [], [run?.nodeRuns]);
  const view = useMemo(() => buildRunView(graph, live.state.nodes, records, selected, live.state.calls), [graph, live.state.nodes, records, selected, live.state.calls]);
  // The focused agent's steps: read again only when events come or the focus moves, not on every render.
  const focusSteps = useMemo(() => {
    const at = view.focus ? parseRowKey(view.focus) : null;
    return at && !isToolCallInvocation(at.invocation) ? agentTrace(live.events, at.nodeId, at.invocation) : [];
  }, [live.events, view.focus]);

  if (error && !run) return <QueryError error={error} onRetry={() => refetch({ requestPolicy: "network-only" })} />;
  if (!data && fetching) return <LoadingState />;
  if (!run) return <ErrorState message={t("runs.detail.notFound")} />;

  const status: RunStatusValue = isTerminalRunStatus(live.state.status) ? live.state.status : run.status;
  const focus = view.focus ? parseRowKey(view.focus) : null;
  const focusNode = focus ? graph.nodes.find((n) => n.id === focus.nodeId) : undefined;
  const focusRecord = focus ? (records.find((r) => r.nodeId === focus.nodeId && r.invocation === focus.invocation) ?? null) : null;
  const focusCall = focus !== null && isToolCallInvocation(focus.invocation);
  const focusModel = focus ? run.nodes.find((node) => node.id === focus.nodeId) : undefined;
  const focusLive = focus ? (focusCall ? live.state.calls[rowKey(focus.nodeId, focus.invocation)] : live.state.nodes[focus.nodeId]) : undefined;
  const result = run.result ?? live.state.result;
  const resumptionMarks = live.state.resumptions.map((resumed) => ({ key: `resumed-${resumed.seq}`, at: resumed.at, label: t("runs.timeline.resumed", { attempt: resumed.attempt ?? "?" }) }));

  return (
    <NodeTypesProvider>
      <div className="run-page">
        <RunHeader runId={run.id} status={status} active={!isTerminalRunStatus(status)} version={run.version ?? null} stream={live.stream} />
        <RunSummary run={{ ...run, version: run.version ?? null, rerunOf: run.rerunOf?.id ?? null, error: run.error ?? live.state.error }} warnings={live.state.warnings} />
        <div className="run-grid">
          <div className="run-column">
            <section className="run-panel">
              <h3>{t("runs.detail.graph")}</h3>
              <RunGraph graph={graph} statuses={view.statuses} live={live.state} selected={focus?.nodeId ?? null} onSelect={(nodeId) => setSelected(latestRowOf(view.rows, nodeId))} />
            </section>
            <section className="run-panel">
              <h3>{t("runs.detail.timeline")}</h3>
              <RunTimeline rows={view.rows} origin={run.startedAt ?? null} selected={view.focus} onSelect={setSelected} marks={resumptionMarks} />
            </section>
            {result ? (
              <section className="run-panel">
                <h3>{t("runs.detail.result")}</h3>
                <RichValue value={result} />
              </section>
            ) : null}
            {run.state ? <RunStateValues state={run.state} /> : null}
            <section className="run-panel">
              <h3>{t("runs.detail.events")}</h3>
              <RunEventLog events={live.events} />
            </section>
          </div>
          <section className="run-panel" aria-label={t("runs.detail.nodes")}>
            {focusNode && focus ? (
              <>
                {focusCall ? <ToolCallOrigin nodeId={focusNode.id} invocation={focus.invocation} callId={callIdOf(live.events, focusNode.id, focus.invocation)} onSelect={setSelected} /> : null}
                <NodeRunDetails
                  nodeId={focusNode.id}
                  nodeType={focusCall ? "tool" : focusNode.type}
                  invocation={focus.invocation}
                  executions={view.rows.filter((row) => row.nodeId === focusNode.id && isToolCallInvocation(row.invocation) === focusCall)}
                  onSelectExecution={setSelected}
                  record={focusRecord}
                  live={focusLive && focusLive.invocation === focus.invocation ? focusLive : null}
                  afterOutput={focusNode.type === "agent" && !focusCall ? <AgentSteps agentId={focusNode.id} steps={focusSteps} price={priceOf(data?.models ?? [], focusModel?.provider, focusModel?.model)} onSelect={setSelected} /> : null}
                />
              </>
            ) : (
              <p className="muted">{t("runs.detail.selectNode")}</p>
            )}
          </section>
        </div>
      </div>
    </NodeTypesProvider>
  );
}
