import { DEFAULT_PORT, type JsonValue, type WorkflowEdge, type WorkflowNode } from "@weft/engine";

/** A node as the API returns it (nullable attributes, JSON params and config). */
export interface ApiWorkflowNode {
  id: string;
  type: string;
  content?: string | null;
  provider?: string | null;
  model?: string | null;
  params?: unknown;
  prompt?: string | null;
  /** The type's own fields (weft.workflow/v2); null when it has none. */
  config?: unknown;
  position: { x: number; y: number };
}

export interface ApiWorkflowEdge {
  id: string;
  source: string;
  target: string;
  /** `out` for ordinary nodes; a router's case, label or verdict port. */
  sourcePort?: string | null;
  /** Set on a loop edge: the loop it closes. */
  loop?: string | null;
}

const isObject = (value: unknown): value is Record<string, unknown> => Boolean(value) && typeof value === "object" && !Array.isArray(value);

/** The engine's shape: absent rather than null, params and config only when they are objects. */
export function fromApiNode(node: ApiWorkflowNode): WorkflowNode {
  const result: WorkflowNode = { id: node.id, type: node.type, position: { x: node.position.x, y: node.position.y } };
  if (node.content != null) result.content = node.content;
  if (node.provider != null) result.provider = node.provider;
  if (node.model != null) result.model = node.model;
  if (node.prompt != null) result.prompt = node.prompt;
  if (isObject(node.params)) result.params = node.params;
  if (isObject(node.config) && Object.keys(node.config).length > 0) result.config = node.config as Record<string, JsonValue>;
  return result;
}

export function fromApiEdge(edge: ApiWorkflowEdge): WorkflowEdge {
  const result: WorkflowEdge = { id: edge.id, source: edge.source, target: edge.target };
  if (edge.sourcePort && edge.sourcePort !== DEFAULT_PORT) result.sourcePort = edge.sourcePort;
  if (edge.loop) result.loop = edge.loop;
  return result;
}
