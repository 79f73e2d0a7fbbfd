/**
 * Folds a run's events (in seq order) into what the live view shows: the run's status, each node's
 * state, its description, streamed tokens and error, and the run's warnings and result. Pure, so the
 * live page and the tests fold the same way.
 */

export type RunStatusValue = "QUEUED" | "RUNNING" | "COMPLETED" | "FAILED" | "CANCELLED";
export type NodeStatusValue = "PENDING" | "RUNNING" | "COMPLETED" | "FAILED" | "SKIPPED";

/** An event as the page receives it: the typed fields of RunEventFields (runs.operations.ts). */
export interface LiveEvent {
  seq: number;
  type: string;
  at: string;
  nodeId: string | null;
  /** RUN_STARTED: every node of the run. */
  nodeIds: readonly string[] | null;
  description: string | null;
  /** NODE_COMPLETED: the node's output; RUN_COMPLETED: the result. */
  output: string | null;
  /** NODE_TOKEN: the streamed text; WARNING: the message. */
  text: string | null;
  /** WARNING: its code. */
  code: string | null;
  /** NODE_SKIPPED, RUN_CANCELLED: why. */
  reason: string | null;
  error: { code: string; message: string } | null;
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

function withNode(
  state: RunLiveState,
  nodeId: string,
  change: (node: NodeLiveState) => NodeLiveState,
): RunLiveState {
  const current = state.nodes[nodeId] ?? emptyNode();
  return { ...state, nodes: { ...state.nodes, [nodeId]: change(current) } };
}

/** Applies one event. Unknown event types are ignored, so newer servers don't break older pages. */
export function applyRunEvent(state: RunLiveState, event: LiveEvent): RunLiveState {
  const nodeId = event.nodeId;
  switch (event.type) {
    case "RUN_STARTED": {
      let next: RunLiveState = { ...state, status: "RUNNING" };
      for (const id of event.nodeIds ?? []) next = withNode(next, id, (node) => node);
      return next;
    }
    case "NODE_STARTED":
      return nodeId
        ? withNode(state, nodeId, (node) => ({ ...node, status: "RUNNING", startedAt: event.at }))
        : state;
    case "NODE_TOKEN":
      return nodeId ? withNode(state, nodeId, (node) => ({ ...node, tokens: node.tokens + (event.text ?? "") })) : state;
    case "NODE_DESCRIPTION":
      return nodeId ? withNode(state, nodeId, (node) => ({ ...node, description: event.description })) : state;
    case "NODE_COMPLETED":
      return nodeId
        ? withNode(state, nodeId, (node) => ({
            ...node,
            status: "COMPLETED",
            description: event.description ?? node.description,
            output: event.output,
            finishedAt: event.at,
          }))
        : state;
    case "NODE_FAILED":
      return nodeId
        ? withNode(state, nodeId, (node) => ({ ...node, status: "FAILED", error: event.error, finishedAt: event.at }))
        : state;
    case "NODE_SKIPPED":
      return nodeId ? withNode(state, nodeId, (node) => ({ ...node, status: "SKIPPED" })) : state;
    case "WARNING":
      return {
        ...state,
        warnings: [
          ...state.warnings,
          { seq: event.seq, nodeId, code: event.code ?? "WARNING", message: event.text ?? "" },
        ],
      };
    case "RUN_COMPLETED":
      return { ...state, status: "COMPLETED", result: event.output };
    case "RUN_FAILED":
      return { ...state, status: "FAILED", error: event.error };
    case "RUN_CANCELLED":
      return { ...state, status: "CANCELLED", error: { code: "RUN_CANCELLED", message: event.reason ?? "" } };
    default:
      return state;
  }
}

export function projectRun(events: readonly LiveEvent[], initial = initialRunLiveState()): RunLiveState {
  return events.reduce(applyRunEvent, initial);
}

export const isTerminalRunStatus = (status: RunStatusValue): boolean =>
  status === "COMPLETED" || status === "FAILED" || status === "CANCELLED";
