"use client";

import { useMemo } from "react";
import { GraphView, type GraphViewEdge, type GraphViewNode } from "../../graph-view/graph-view";
import type { AnyStatus } from "../status/status-badge";
import { statusTone } from "../status/status-badge";
import { layeredPositions, type SnapshotGraph } from "./run-snapshot";

/** The graph a run executed, each node tinted by its state in this run. */
export function RunGraph({
  graph,
  statuses,
  selected,
  onSelect,
}: {
  graph: SnapshotGraph;
  statuses: Record<string, AnyStatus>;
  selected: string | null;
  onSelect: (id: string) => void;
}) {
  const positions = useMemo(() => layeredPositions(graph), [graph]);
  const nodes = useMemo<GraphViewNode[]>(
    () =>
      graph.nodes.map((node) => {
        const status = statuses[node.id] ?? "PENDING";
        return { id: node.id, type: node.type, label: node.label, position: positions.get(node.id) ?? { x: 0, y: 0 }, tone: statusTone(status), state: status };
      }),
    [graph, positions, statuses],
  );
  const edges = useMemo<GraphViewEdge[]>(
    () => graph.edges.map((edge) => ({ id: edge.id, source: edge.source, target: edge.target, animated: statuses[edge.target] === "RUNNING" })),
    [graph, statuses],
  );
  return <GraphView nodes={nodes} edges={edges} selected={selected} onSelect={onSelect} />;
}
