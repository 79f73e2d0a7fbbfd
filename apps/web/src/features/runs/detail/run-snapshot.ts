/**
 * The graph a run executed, from the run's typed `nodes` and `edges` (lifted by the API from its
 * snapshot), so the run page never consults the current workflow, which may have changed since.
 */

export interface SnapshotNode {
  id: string;
  type: string;
  label: string | null;
  position: { x: number; y: number } | null;
}

export interface SnapshotEdge {
  id: string;
  source: string;
  target: string;
}

export interface SnapshotGraph {
  nodes: SnapshotNode[];
  edges: SnapshotEdge[];
}

/** The fields of a run's `nodes` and `edges` the page reads (RunDetail in runs.operations.ts). */
export interface ExecutedGraph {
  nodes: readonly { id: string; type: string; provider?: string | null; model?: string | null; position?: { x: number; y: number } | null }[];
  edges: readonly { id: string; source: string; target: string }[];
}

/** Nodes labelled with their model; edges to nodes the graph lacks are left out. */
export function snapshotGraphOf(run: ExecutedGraph): SnapshotGraph {
  const nodes = run.nodes.map((node) => ({
    id: node.id,
    type: node.type,
    label: node.model ? `${node.provider ?? "?"} / ${node.model}` : null,
    position: node.position ?? null,
  }));
  const ids = new Set(nodes.map((node) => node.id));
  const edges = run.edges.filter((edge) => ids.has(edge.source) && ids.has(edge.target)).map(({ id, source, target }) => ({ id, source, target }));
  return { nodes, edges };
}

/**
 * Positions for nodes that carry none: columns by longest path from a source, rows in order within a
 * column, so an imported or API-built graph still reads left to right.
 */
export function layeredPositions(graph: SnapshotGraph, gap = { x: 220, y: 110 }): Map<string, { x: number; y: number }> {
  const depth = new Map<string, number>();
  const incoming = new Map<string, string[]>();
  for (const edge of graph.edges) incoming.set(edge.target, [...(incoming.get(edge.target) ?? []), edge.source]);
  const visit = (id: string, trail: Set<string>): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    if (trail.has(id)) return 0; // a cycle cannot run, but must not hang the page either
    trail.add(id);
    const preds = incoming.get(id) ?? [];
    const d = preds.length === 0 ? 0 : 1 + Math.max(...preds.map((p) => visit(p, trail)));
    trail.delete(id);
    depth.set(id, d);
    return d;
  };
  const rows = new Map<number, number>();
  const positions = new Map<string, { x: number; y: number }>();
  for (const node of graph.nodes) {
    const column = visit(node.id, new Set());
    const row = rows.get(column) ?? 0;
    rows.set(column, row + 1);
    positions.set(node.id, node.position ?? { x: column * gap.x, y: row * gap.y });
  }
  return positions;
}
