/**
 * Folds a run's events (in seq order) into what the live view shows: the run's status, each node's
 * state, its description, streamed tokens and error, and the run's warnings and result. Pure, so the
 * live page and the tests fold the same way.
 */

export type RunStatusValue = "QUEUED" | "RUNNING" | "COMPLETED" | "FAILED" | "CANCELLED";
export type NodeStatusValue = "PENDING" | "RUNNING" | "COMPLETED" | "FAILED" | "SKIPPED";

/** An event as the page receives it: the common fields plus the type's payload, untyped. */
export interface LiveEvent {
  seq: number;
  type: string;
  at: string;
  nodeId: string | null;
  payload: Record<string, unknown>;
}

export interface NodeLiveState {
  status: NodeStatusValue;
  description: string | null;
  tokens: string;
  output: string | null;
  error: { code: string; message: string } | null;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface RunLiveState {
  status: RunStatusValue;
  nodes: Record<string, NodeLiveState>;
  warnings: { seq: number; nodeId: string | null; code: string; message: string }[];
  result: string | null;
  error: { code: string; message: string } | null;
}

export function initialRunLiveState(status: RunStatusValue = "QUEUED"): RunLiveState {
  return { status, nodes: {}, warnings: [], result: null, error: null };
}

const emptyNode = (): NodeLiveState => ({
  status: "PENDING",
  description: null,
  tokens: "",
  output: null,
  error: null,
  startedAt: null,
  finishedAt: null,
});

const text = (value: unknown): string | null => (typeof value === "string" ? value : null);

function errorOf(value: unknown): { code: string; message: string } | null {
  if (!value || typeof value !== "object") return null;
  const record = value as Record<string, unknown>;
  return { code: text(record.code) ?? "UNKNOWN", message: text(record.message) ?? "" };
}

function withNode(
  state: RunLiveState,
  nodeId: string,
  change: (node: NodeLiveState) => NodeLiveState,
): RunLiveState {
  const current = state.nodes[nodeId] ?? emptyNode();
  return { ...state, nodes: { ...state.nodes, [nodeId]: change(current) } };
}

function nodeIdOf(event: LiveEvent): string | null {
  return event.nodeId ?? text(event.payload.nodeId);
}

/** Applies one event. Unknown event types are ignored, so newer servers don't break older pages. */
export function applyRunEvent(state: RunLiveState, event: LiveEvent): RunLiveState {
  const nodeId = nodeIdOf(event);
  const p = event.payload;
  switch (event.type) {
    case "RUN_STARTED": {
      const ids = Array.isArray(p.nodeIds) ? p.nodeIds.filter((id): id is string => typeof id === "string") : [];
      let next: RunLiveState = { ...state, status: "RUNNING" };
      for (const id of ids) next = withNode(next, id, (node) => node);
      return next;
    }
    case "NODE_STARTED":
      return nodeId
        ? withNode(state, nodeId, (node) => ({ ...node, status: "RUNNING", startedAt: event.at }))
        : state;
    case "NODE_TOKEN":
      return nodeId ? withNode(state, nodeId, (node) => ({ ...node, tokens: node.tokens + (text(p.text) ?? "") })) : state;
    case "NODE_DESCRIPTION":
      return nodeId ? withNode(state, nodeId, (node) => ({ ...node, description: text(p.description) })) : state;
    case "NODE_COMPLETED":
      return nodeId
        ? withNode(state, nodeId, (node) => ({
            ...node,
            status: "COMPLETED",
            description: text(p.description) ?? node.description,
            output: text(p.output),
            finishedAt: event.at,
          }))
        : state;
    case "NODE_FAILED":
      return nodeId
        ? withNode(state, nodeId, (node) => ({ ...node, status: "FAILED", error: errorOf(p.error), finishedAt: event.at }))
        : state;
    case "NODE_SKIPPED":
      return nodeId ? withNode(state, nodeId, (node) => ({ ...node, status: "SKIPPED" })) : state;
    case "WARNING":
      return {
        ...state,
        warnings: [
          ...state.warnings,
          { seq: event.seq, nodeId, code: text(p.code) ?? "WARNING", message: text(p.message) ?? "" },
        ],
      };
    case "RUN_COMPLETED":
      return { ...state, status: "COMPLETED", result: text(p.result) };
    case "RUN_FAILED":
      return { ...state, status: "FAILED", error: errorOf(p.error) };
    case "RUN_CANCELLED":
      return { ...state, status: "CANCELLED", error: { code: "RUN_CANCELLED", message: text(p.reason) ?? "" } };
    default:
      return state;
  }
}

export function projectRun(events: readonly LiveEvent[], initial = initialRunLiveState()): RunLiveState {
  return events.reduce(applyRunEvent, initial);
}

export const isTerminalRunStatus = (status: RunStatusValue): boolean =>
  status === "COMPLETED" || status === "FAILED" || status === "CANCELLED";
