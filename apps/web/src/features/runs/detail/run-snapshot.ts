import { needsLayout } from "../../graph-view/auto-layout";

/**
 * The graph a run executed, from the run's typed `nodes` and `edges` (lifted by the API from its
 * snapshot), so the run page never consults the current workflow, which may have changed since.
 */

export interface SnapshotNode {
  id: string;
  type: string;
  label: string | null;
  position: { x: number; y: number } | null;
  /** Its output ports (`out`, or a router's). */
  ports?: readonly string[];
}

export interface SnapshotEdge {
  id: string;
  source: string;
  target: string;
  /** The source's port (`out` for ordinary nodes). */
  sourcePort?: string;
  /** Set on a loop edge: the loop it closes. */
  loop?: string | null;
}

export interface SnapshotGraph {
  nodes: SnapshotNode[];
  edges: SnapshotEdge[];
}

/** The fields of a run's `nodes` and `edges` the page reads (RunDetail in runs.operations.ts). */
export interface ExecutedGraph {
  nodes: readonly { id: string; type: string; provider?: string | null; model?: string | null; ports?: readonly string[]; position?: { x: number; y: number } | null }[];
  edges: readonly { id: string; source: string; target: string; sourcePort?: string | null; loop?: string | null }[];
}

/** Nodes labelled with their model; edges to nodes the graph lacks are left out. */
export function snapshotGraphOf(run: ExecutedGraph): SnapshotGraph {
  const nodes = run.nodes.map((node) => ({
    id: node.id,
    type: node.type,
    label: node.model ? `${node.provider ?? "?"} / ${node.model}` : null,
    position: node.position ?? null,
    ...(node.ports ? { ports: node.ports } : {}),
  }));
  const ids = new Set(nodes.map((node) => node.id));
  const edges = run.edges.filter((edge) => ids.has(edge.source) && ids.has(edge.target)).map(({ id, source, target, sourcePort, loop }) => ({ id, source, target, ...(sourcePort ? { sourcePort } : {}), ...(loop ? { loop } : {}) }));
  return { nodes, edges };
}

/** True when the page lays the graph out itself: some node has no position, or all sit on one spot. */
export function drawnWithoutPositions(graph: SnapshotGraph): boolean {
  return needsLayout(graph.nodes) || graph.nodes.some((node) => !node.position);
}
