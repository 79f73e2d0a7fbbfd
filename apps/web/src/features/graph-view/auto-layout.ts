import ELK from "elkjs/lib/elk.bundled.js";
import type { ElkExtendedEdge, ElkNode } from "elkjs/lib/elk-api";

/**
 * The layered layout every canvas uses (the editor's "Tidy up", graphs imported without positions, map
 * and subgraph bodies, the run page and the comparison): ELK's layered algorithm, left to right. Each
 * output port is an ELK port on the card's right side in the card's own order, so a router's case edges
 * leave in the order its handles are drawn and do not cross one another; loop edges are left out, so a
 * loop's header stays to the left of the router that goes back to it (they are drawn as back edges).
 * The read-only graphs fit it to their canvas (`fit-layout.ts`).
 */

export interface AutoLayoutNode {
  id: string;
  /** The card's size; measured on the canvas when known, else estimated (`estimatedCardSize`). */
  width: number;
  height: number;
  /** Output ports in display order (`out`, or a router's cases then `default`); none for a sink. */
  ports: readonly string[];
}

export interface AutoLayoutEdge {
  source: string;
  target: string;
  /** Absent: `out`. */
  sourcePort?: string | null;
  /** Set on a loop edge: not laid out (it runs backwards). */
  loop?: string | null;
}

export type Positions = Map<string, { x: number; y: number }>;

/** How to lay out: `aspectRatio` (width / height) wraps a graph wider than that into rows, ELK's graph wrapping. */
export interface AutoLayoutOptions {
  aspectRatio?: number;
  /** Space between layers and between cards of a layer; the editor's by default (AUTO_LAYOUT_SPACING). */
  spacing?: { betweenLayers: number; betweenNodes: number };
}

/** True when the nodes carry no layout: none has a position, or every one sits on the same spot. */
export function needsLayout(nodes: readonly { position?: { x: number; y: number } | null }[]): boolean {
  if (nodes.length < 2) return false;
  const first = nodes[0]!.position;
  return nodes.every((node) => !node.position || (first && node.position.x === first.x && node.position.y === first.y));
}

/** Space between columns leaves room for edge labels (loop bounds); between rows for live text. */
export const AUTO_LAYOUT_SPACING = { betweenLayers: 110, betweenNodes: 48 } as const;
/** The read-only graphs' cards are smaller (no form, no live text): closer together, room for a loop's label kept. */
export const COMPACT_SPACING = { betweenLayers: 80, betweenNodes: 24 } as const;

/** The cards' width (editor.css `.wf-node`) and the height of a card's parts, for graphs not drawn yet. */
const CARD = { width: 180, header: 30, body: 62, port: 19 } as const;

/** A card's size before it is drawn: its header and body, and a line per port when it has several. */
export function estimatedCardSize(ports: readonly string[]): { width: number; height: number } {
  const portLines = ports.length > 1 ? ports.length : 0;
  return { width: CARD.width, height: CARD.header + CARD.body + portLines * CARD.port };
}

const elk = new ELK();

const portId = (node: string, port: string) => `${node}\u0000${port}`;
const inPortId = (node: string) => `${node}\u0000\u0000in`;

/** The ELK graph of the nodes and their data edges (edges to unknown nodes or ports are dropped). */
export function toElkGraph(nodes: readonly AutoLayoutNode[], edges: readonly AutoLayoutEdge[], options: AutoLayoutOptions = {}): ElkNode {
  const known = new Map(nodes.map((node) => [node.id, new Set(node.ports)]));
  const targets = new Set<string>();
  const elkEdges: ElkExtendedEdge[] = [];
  edges.forEach((edge, index) => {
    if (edge.loop || edge.source === edge.target) return;
    const port = edge.sourcePort ?? "out";
    if (!known.get(edge.source)?.has(port) || !known.has(edge.target)) return;
    targets.add(edge.target);
    elkEdges.push({ id: `e${index}`, sources: [portId(edge.source, port)], targets: [inPortId(edge.target)] });
  });
  const children: ElkNode[] = nodes.map((node) => ({
    id: node.id,
    width: node.width,
    height: node.height,
    layoutOptions: { "elk.portConstraints": "FIXED_ORDER" },
    ports: [
      ...(targets.has(node.id) ? [{ id: inPortId(node.id), width: 1, height: 1, layoutOptions: { "elk.port.side": "WEST", "elk.port.index": "0" } }] : []),
      // ELK orders a side's ports clockwise: on the east side, top to bottom.
      ...node.ports.map((port, index) => ({
        id: portId(node.id, port),
        width: 1,
        height: 1,
        layoutOptions: { "elk.port.side": "EAST", "elk.port.index": String(index) },
      })),
    ],
  }));
  const spacing = options.spacing ?? AUTO_LAYOUT_SPACING;
  return {
    id: "root",
    layoutOptions: {
      "elk.algorithm": "layered",
      "elk.direction": "RIGHT",
      "elk.layered.spacing.nodeNodeBetweenLayers": String(spacing.betweenLayers),
      "elk.spacing.nodeNode": String(spacing.betweenNodes),
      "elk.layered.nodePlacement.strategy": "NETWORK_SIMPLEX",
      "elk.layered.considerModelOrder.strategy": "NODES_AND_EDGES",
      "elk.separateConnectedComponents": "true",
      "elk.spacing.componentComponent": String(spacing.betweenNodes * 2),
      // Cuts a long graph into pieces laid one under another (each cut edge runs back to the left).
      ...(options.aspectRatio ? { "elk.layered.wrapping.strategy": "MULTI_EDGE", "elk.aspectRatio": String(options.aspectRatio) } : {}),
    },
    children,
    edges: elkEdges,
  };
}

/** Top-left positions for every node, the first column at x = 0. */
export async function autoLayout(nodes: readonly AutoLayoutNode[], edges: readonly AutoLayoutEdge[], options: AutoLayoutOptions = {}): Promise<Positions> {
  const positions: Positions = new Map();
  if (nodes.length === 0) return positions;
  const laidOut = await elk.layout(toElkGraph(nodes, edges, options));
  for (const child of laidOut.children ?? []) positions.set(child.id, { x: Math.round(child.x ?? 0), y: Math.round(child.y ?? 0) });
  return positions;
}

/** True when two cards' boxes overlap (used by tests and by the tidy-up check). */
export function overlapping(boxes: readonly { id: string; x: number; y: number; width: number; height: number }[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i < boxes.length; i += 1) {
    for (let j = i + 1; j < boxes.length; j += 1) {
      const a = boxes[i]!;
      const b = boxes[j]!;
      if (a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height) pairs.push([a.id, b.id]);
    }
  }
  return pairs;
}
