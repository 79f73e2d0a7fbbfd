/**
 * Positions for a graph drawn without its own: columns by longest path from a source (loop edges left
 * out, so a loop does not push its header to the right), rows in order within a column, and bands of a
 * few columns stacked top to bottom. An imported or API-built graph then reads left to right, line by line.
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

/** Room for a node with its ports, settings and live text, and for the labels of loop edges between columns. */
export const LAYOUT_GAP = { x: 270, y: 180 } as const;

/** Columns in one band: a longer graph goes on in a band below, so a long chain still fits a screen. */
export const BAND_COLUMNS = 5;

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
  const columns = new Map<string, number>();
  for (const node of nodes) columns.set(node.id, visit(node.id, new Set()));
  // Rows per column, then per band (a band holds BAND_COLUMNS columns; bands stack top to bottom).
  const rows = new Map<number, number>();
  const rowOf = new Map<string, number>();
  for (const node of nodes) {
    const column = columns.get(node.id) ?? 0;
    const row = rows.get(column) ?? 0;
    rows.set(column, row + 1);
    rowOf.set(node.id, row);
  }
  const bandHeight = new Map<number, number>();
  for (const [column, count] of rows) {
    const band = Math.floor(column / BAND_COLUMNS);
    bandHeight.set(band, Math.max(bandHeight.get(band) ?? 0, count));
  }
  const bandTop = (band: number) => {
    let top = 0;
    for (let b = 0; b < band; b += 1) top += ((bandHeight.get(b) ?? 1) + 0.5) * gap.y;
    return top;
  };
  const positions: Positions = new Map();
  for (const node of nodes) {
    const column = columns.get(node.id) ?? 0;
    const band = Math.floor(column / BAND_COLUMNS);
    positions.set(node.id, { x: (column % BAND_COLUMNS) * gap.x, y: bandTop(band) + (rowOf.get(node.id) ?? 0) * gap.y });
  }
  return positions;
}
