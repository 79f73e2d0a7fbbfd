import type { ReactFlowInstance } from "@xyflow/react";
import { READABLE_ZOOM } from "../../graph-view/fit-layout";
import type { EditorFlowEdge, EditorFlowNode } from "./editor-graph";
export const FIT_VIEW = { padding: 0.15, maxZoom: 1.1 } as const;

/**
 * Fits the graph in view when it can be read at that zoom; a larger graph is shown from its start (its
 * leftmost card, at the left edge and mid-height) at a readable zoom instead, and the minimap shows the
 * whole. `positions` are new positions not drawn yet (a tidy up); else the canvas' own are read.
 */
export async function readableFit(flow: ReactFlowInstance<EditorFlowNode, EditorFlowEdge>, duration = 200, positions?: ReadonlyMap<string, { x: number; y: number }>): Promise<void> {
  const nodes = flow.getNodes();
  const canvas = document.querySelector(".canvas .react-flow")?.getBoundingClientRect();
  if (nodes.length === 0 || !canvas) return;
  const boxes = nodes.map((node) => {
    const at = positions?.get(node.id) ?? node.position;
    return { x: at.x, y: at.y, width: node.measured?.width ?? 180, height: node.measured?.height ?? 100 };
  });
  const left = Math.min(...boxes.map((b) => b.x));
  const top = Math.min(...boxes.map((b) => b.y));
  const width = Math.max(...boxes.map((b) => b.x + b.width)) - left;
  const height = Math.max(...boxes.map((b) => b.y + b.height)) - top;
  const fitted = Math.min(canvas.width / (width * (1 + FIT_VIEW.padding)), canvas.height / (height * (1 + FIT_VIEW.padding)));
  if (fitted >= READABLE_ZOOM) {
    await flow.fitBounds({ x: left, y: top, width, height }, { padding: FIT_VIEW.padding, duration });
    return;
  }
  const first = boxes.reduce((best, box) => (box.x < best.x || (box.x === best.x && box.y < best.y) ? box : best));
  const margin = 40;
  await flow.setViewport({ x: margin - left * READABLE_ZOOM, y: canvas.height / 2 - (first.y + first.height / 2) * READABLE_ZOOM, zoom: READABLE_ZOOM }, { duration });
}

/** Pans (at the same zoom) so a box of the graph is in view, away from the canvas' edges, when it is not already. */
export function ensureVisible(flow: ReactFlowInstance<EditorFlowNode, EditorFlowEdge>, box: { x: number; y: number; width: number; height: number }, margin = 60): void {
  const canvas = document.querySelector(".canvas .react-flow")?.getBoundingClientRect();
  if (!canvas) return;
  const topLeft = flow.flowToScreenPosition({ x: box.x, y: box.y });
  const bottomRight = flow.flowToScreenPosition({ x: box.x + box.width, y: box.y + box.height });
  const inside = topLeft.x >= canvas.left + margin && topLeft.y >= canvas.top + margin && bottomRight.x <= canvas.right - margin && bottomRight.y <= canvas.bottom - margin;
  if (!inside) void flow.setCenter(box.x + box.width / 2, box.y + box.height / 2, { zoom: flow.getZoom(), duration: 150 });
}
