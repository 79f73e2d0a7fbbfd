import type { WorkflowEdge, WorkflowNode } from "@weft/engine";

/** A node as the API returns it (nullable attributes, JSON params). */
export interface ApiWorkflowNode {
  id: string;
  type: string;
  content?: string | null;
  provider?: string | null;
  model?: string | null;
  params?: unknown;
  prompt?: string | null;
  position: { x: number; y: number };
}

export interface ApiWorkflowEdge {
  id: string;
  source: string;
  target: string;
}

/** The engine's shape: absent rather than null, params only when they are an object. */
export function fromApiNode(node: ApiWorkflowNode): WorkflowNode {
  const result: WorkflowNode = { id: node.id, type: node.type, position: { x: node.position.x, y: node.position.y } };
  if (node.content != null) result.content = node.content;
  if (node.provider != null) result.provider = node.provider;
  if (node.model != null) result.model = node.model;
  if (node.prompt != null) result.prompt = node.prompt;
  if (node.params && typeof node.params === "object" && !Array.isArray(node.params)) result.params = node.params as Record<string, unknown>;
  return result;
}

export function fromApiEdge(edge: ApiWorkflowEdge): WorkflowEdge {
  return { id: edge.id, source: edge.source, target: edge.target };
}
