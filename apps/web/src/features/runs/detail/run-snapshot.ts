/**
 * Reads the graph out of a run's snapshot (JSON as stored by the API). The snapshot is the graph as
 * executed, so the run page never consults the current workflow, which may have changed since. Parsing
 * is defensive: a malformed or older snapshot yields what can be read, never a crash.
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

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const str = (value: unknown): string | null => (typeof value === "string" && value.length > 0 ? value : null);
const num = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);

function graphRoot(snapshot: unknown): Record<string, unknown> | null {
  if (!isRecord(snapshot)) return null;
  if (Array.isArray(snapshot.nodes)) return snapshot;
  for (const key of ["graph", "workflow"]) {
    const inner = snapshot[key];
    if (isRecord(inner) && Array.isArray(inner.nodes)) return inner;
  }
  return null;
}

function readNode(raw: unknown): SnapshotNode | null {
  if (!isRecord(raw)) return null;
  const id = str(raw.id);
  const type = str(raw.type);
  if (!id || !type) return null;
  const pos = isRecord(raw.position) ? raw.position : null;
  const x = num(pos?.x);
  const y = num(pos?.y);
  const label = str(raw.model) ? `${str(raw.provider) ?? "?"} / ${str(raw.model)}` : null;
  return { id, type, label, position: x !== null && y !== null ? { x, y } : null };
}

function readEdge(raw: unknown, index: number): SnapshotEdge | null {
  if (!isRecord(raw)) return null;
  const source = str(raw.source);
  const target = str(raw.target);
  if (!source || !target) return null;
  return { id: str(raw.id) ?? `edge-${index}`, source, target };
}

export function readSnapshotGraph(snapshot: unknown): SnapshotGraph {
  const root = graphRoot(snapshot);
  if (!root) return { nodes: [], edges: [] };
  const nodes = (root.nodes as unknown[]).map(readNode).filter((n): n is SnapshotNode => n !== null);
  const ids = new Set(nodes.map((n) => n.id));
  const edges = (Array.isArray(root.edges) ? root.edges : [])
    .map(readEdge)
    .filter((e): e is SnapshotEdge => e !== null && ids.has(e.source) && ids.has(e.target));
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

/** The workflow's name as it was when the run started. */
export function readSnapshotName(snapshot: unknown): string | null {
  const root = graphRoot(snapshot);
  return root ? str(root.name) : null;
}
