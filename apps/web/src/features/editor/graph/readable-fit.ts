import type { ReactFlowInstance } from "@xyflow/react";
import type { EditorFlowEdge, EditorFlowNode } from "./editor-graph";

/** Below this zoom a card's text is too small to read (12 px text at 0.55 is about 6.5 px). */
export const READABLE_ZOOM = 0.55;
export const FIT_VIEW = { padding: 0.15, maxZoom: 1.1 } as const;

/**
 * Fits the graph in view when it can be read at that zoom; a larger graph is shown from its start
 * (its leftmost columns) at a readable zoom instead, and the minimap shows the whole.
 */
export async function readableFit(flow: ReactFlowInstance<EditorFlowNode, EditorFlowEdge>, duration = 200): Promise<void> {
  const nodes = flow.getNodes();
  if (nodes.length === 0) return;
  const canvas = document.querySelector(".canvas .react-flow")?.getBoundingClientRect();
  if (!canvas) {
    await flow.fitView({ ...FIT_VIEW, duration });
    return;
  }
  const box = (node: EditorFlowNode) => ({ left: node.position.x, right: node.position.x + (node.measured?.width ?? 180), top: node.position.y, bottom: node.position.y + (node.measured?.height ?? 100) });
  const boxes = nodes.map(box);
  const width = Math.max(...boxes.map((b) => b.right)) - Math.min(...boxes.map((b) => b.left));
  const height = Math.max(...boxes.map((b) => b.bottom)) - Math.min(...boxes.map((b) => b.top));
  const fitted = Math.min(canvas.width / (width * (1 + FIT_VIEW.padding)), canvas.height / (height * (1 + FIT_VIEW.padding)));
  if (fitted >= READABLE_ZOOM) {
    await flow.fitView({ ...FIT_VIEW, duration });
    return;
  }
  const left = Math.min(...boxes.map((b) => b.left));
  const visibleWidth = canvas.width / READABLE_ZOOM;
  const start = nodes.filter((node, index) => boxes[index]!.right <= left + visibleWidth * 0.9);
  await flow.fitView({ ...FIT_VIEW, minZoom: READABLE_ZOOM, nodes: (start.length > 0 ? start : nodes.slice(0, 1)).map((node) => ({ id: node.id })), duration });
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
