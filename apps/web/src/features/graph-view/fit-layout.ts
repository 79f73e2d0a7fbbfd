import { autoLayout, COMPACT_SPACING, type AutoLayoutEdge, type AutoLayoutNode, type Positions } from "./auto-layout";

/** Below this zoom a card's text is too small to read (12 px text at 0.55 is about 6.5 px). */
export const READABLE_ZOOM = 0.55;
/** Room kept around a fitted graph, as a share of its size (ReactFlow's `fitView` padding). */
export const FIT_PADDING = 0.2;

export interface CanvasSize {
  width: number;
  height: number;
  /** Fold a graph into rows when one row of layers would not read (else it is left to pan along). */
  fold?: boolean;
  /** The canvas may grow to this height to keep the whole graph readable; absent, it keeps its height. */
  maxHeight?: number;
}

export interface FittedLayout {
  positions: Positions;
  /** The canvas height to draw it in (the given height, or more when the canvas may grow). */
  height: number;
  /** The zoom at which the whole graph fits that canvas. */
  zoom: number;
}

/** The size of the box holding every card. */
export function extent(nodes: readonly AutoLayoutNode[], positions: Positions): { width: number; height: number } {
  if (nodes.length === 0) return { width: 0, height: 0 };
  const boxes = nodes.map((node) => ({ ...(positions.get(node.id) ?? { x: 0, y: 0 }), width: node.width, height: node.height }));
  const left = Math.min(...boxes.map((box) => box.x));
  const top = Math.min(...boxes.map((box) => box.y));
  return { width: Math.max(...boxes.map((box) => box.x + box.width)) - left, height: Math.max(...boxes.map((box) => box.y + box.height)) - top };
}

/** The zoom at which a box fits a canvas with the padding around it (never above 1). */
export function fitZoom(size: { width: number; height: number }, canvas: { width: number; height: number }): number {
  if (size.width === 0 || size.height === 0) return 1;
  return Math.min(1, canvas.width / (size.width * (1 + FIT_PADDING)), canvas.height / (size.height * (1 + FIT_PADDING)));
}

/**
 * The editor's layered layout (auto-layout.ts) fitted to a read-only canvas: one row of layers when the
 * whole then reads at READABLE_ZOOM or more, or when the canvas does not fold; else wrapped into rows to
 * the canvas' shape (a long chain folds the way text does); else, on a canvas that may grow, wrapped to
 * its tallest shape and the canvas made only as tall as a readable whole needs. A graph too large even
 * then gets the largest zoom found.
 */
export async function fitLayout(nodes: readonly AutoLayoutNode[], edges: readonly AutoLayoutEdge[], canvas: CanvasSize): Promise<FittedLayout> {
  const attempt = async (height: number, aspectRatio?: number) => {
    const positions = await autoLayout(nodes, edges, { spacing: COMPACT_SPACING, ...(aspectRatio ? { aspectRatio } : {}) });
    const size = extent(nodes, positions);
    return { positions, height, size, zoom: fitZoom(size, { width: canvas.width, height }) };
  };
  const wide = await attempt(canvas.height);
  if (wide.zoom >= READABLE_ZOOM || !canvas.fold) return result(wide);
  const wrapped = await attempt(canvas.height, canvas.width / canvas.height);
  const better = wrapped.zoom > wide.zoom ? wrapped : wide;
  if (better.zoom >= READABLE_ZOOM || !canvas.maxHeight || canvas.maxHeight <= canvas.height) return result(better);
  const tall = await attempt(canvas.maxHeight, canvas.width / canvas.maxHeight);
  if (tall.zoom <= better.zoom) return result(better);
  const height = Math.max(canvas.height, Math.min(canvas.maxHeight, Math.ceil(tall.size.height * (1 + FIT_PADDING) * Math.min(tall.zoom, READABLE_ZOOM))));
  return result({ ...tall, height, zoom: fitZoom(tall.size, { width: canvas.width, height }) });
}

const result = ({ positions, height, zoom }: FittedLayout): FittedLayout => ({ positions, height, zoom });
