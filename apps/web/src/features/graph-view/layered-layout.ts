/**
 * Positions for a graph drawn without its own: columns by longest path from a source (loop edges left
 * out, so a loop does not push its header to the right), rows in order within a column. An imported or
 * API-built graph then reads left to right.
 */

export interface LayoutNode {
  id: string;
  position?: { x: number; y: number } | null;
}

export interface LayoutEdge {
  source: string;
  target: string;
  loop?: string | null;
}

export type Positions = Map<string, { x: number; y: number }>;

export const LAYOUT_GAP = { x: 240, y: 120 } as const;

/** True when the nodes carry no layout: none has a position, or every one sits on the same spot. */
export function needsLayout(nodes: readonly LayoutNode[]): boolean {
  if (nodes.length < 2) return false;
  const first = nodes[0]!.position;
  return nodes.every((node) => !node.position || (first && node.position.x === first.x && node.position.y === first.y));
}

export function layeredLayout(nodes: readonly LayoutNode[], edges: readonly LayoutEdge[], gap: { x: number; y: number } = LAYOUT_GAP): Positions {
  const depth = new Map<string, number>();
  const incoming = new Map<string, string[]>();
  for (const edge of edges) if (!edge.loop) incoming.set(edge.target, [...(incoming.get(edge.target) ?? []), edge.source]);
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
  const positions: Positions = new Map();
  for (const node of nodes) {
    const column = visit(node.id, new Set());
    const row = rows.get(column) ?? 0;
    rows.set(column, row + 1);
    positions.set(node.id, { x: column * gap.x, y: row * gap.y });
  }
  return positions;
}
