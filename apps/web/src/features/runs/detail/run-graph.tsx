"use client";

import { useMemo } from "react";
import { useT } from "@/i18n/i18n-provider";
import { GraphView, type GraphViewEdge, type GraphViewNode } from "../../graph-view/graph-view";
import { edgeRunState, headerFeedback, loopsByHeader, nodeBadges } from "../live/pipeline-events";
import type { RunLiveState } from "../live/run-projection";
import type { AnyStatus } from "../status/status-badge";
import { statusTone } from "../status/status-badge";
import { drawnWithoutPositions, type SnapshotGraph } from "./run-snapshot";

/**
 * The graph a run executed, each node tinted by its state in this run, with its loop iteration, map
 * progress or cache hit, and a loop header with the feedback that started its latest iteration; edges a
 * router took drawn green, edges it left dead greyed.
 */
export function RunGraph({
  graph,
  statuses,
  live,
  selected,
  onSelect,
}: {
  graph: SnapshotGraph;
  statuses: Record<string, AnyStatus>;
  live: RunLiveState;
  selected: string | null;
  onSelect: (id: string) => void;
}) {
  const t = useT();
  // A graph saved without positions (built through the API or imported) is laid out as the editor does.
  const unplaced = useMemo(() => drawnWithoutPositions(graph), [graph]);
  const labels = useMemo(
    () => ({ items: (done: number, total: number) => t("pipeline.live.items", { done, total }), cacheHit: (similarity: number | null) => t("pipeline.live.cacheHit", { similarity: similarity === null ? "" : similarity.toFixed(2) }) }),
    [t],
  );
  const headed = useMemo(() => loopsByHeader(graph.edges), [graph]);
  const nodes = useMemo<GraphViewNode[]>(
    () =>
      graph.nodes.map((node) => {
        const status = statuses[node.id] ?? "PENDING";
        const badge = nodeBadges(live, node.id, labels).join(" · ");
        const feedback = headerFeedback(live, headed.get(node.id) ?? []);
        return {
          id: node.id,
          type: node.type,
          label: node.label,
          position: node.position ?? { x: 0, y: 0 },
          tone: statusTone(status),
          state: status,
          ...(badge ? { badge } : {}),
          ...(feedback ? { note: { text: feedback, label: t("pipeline.live.latestFeedback") } } : {}),
          ...(node.ports ? { ports: node.ports } : {}),
        };
      }),
    [graph, statuses, live, labels, headed, t],
  );
  const edges = useMemo<GraphViewEdge[]>(
    () =>
      graph.edges.map((edge) => {
        const ran = edgeRunState(live, edge);
        return {
          id: edge.id,
          source: edge.source,
          target: edge.target,
          ...(edge.sourcePort ? { sourcePort: edge.sourcePort } : {}),
          animated: statuses[edge.target] === "RUNNING",
          ...(edge.loop ? { label: edge.loop, loop: edge.loop, tone: "loop" } : ran ? { tone: ran } : {}),
        };
      }),
    [graph, statuses, live],
  );
  return <GraphView nodes={nodes} edges={edges} selected={selected} onSelect={onSelect} autoLayout={unplaced} />;
}
