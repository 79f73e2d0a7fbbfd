/**
 * Folds a run's events (in seq order) into what the live view shows: the run's status, each node's
 * state, its description, streamed tokens and error, and the run's warnings and result. Pure, so the
 * live page and the tests fold the same way.
 */

import { isToolCallInvocation } from "./agent-trace";
import { emptyNode, initialRunLiveState, withNode, type LiveEvent, type RunLiveState, type RunStatusValue } from "./live-state";
import { applyPipelineEvent } from "./pipeline-events";
import { rowKey } from "./row-key";

export { initialRunLiveState } from "./live-state";
export type { LiveEvent, NodeLiveState, NodeStatusValue, RunLiveState, RunStatusValue } from "./live-state";

/** Applies one event. Unknown event types are ignored, so newer servers don't break older pages. */
export function applyRunEvent(state: RunLiveState, event: LiveEvent): RunLiveState {
  const invocation = event.pipeline?.invocation ?? "";
  if (event.nodeId && event.type.startsWith("NODE_") && isToolCallInvocation(invocation)) return applyCallEvent(state, event.nodeId, invocation, event);
  return applyEvent(state, event);
}

/** A tool call's NODE_* event folds into its own entry of `calls`, the same way a node's does. */
function applyCallEvent(state: RunLiveState, nodeId: string, invocation: string, event: LiveEvent): RunLiveState {
  const key = rowKey(nodeId, invocation);
  const alone: RunLiveState = { ...initialRunLiveState(state.status), nodes: { [nodeId]: state.calls[key] ?? emptyNode() } };
  const folded = applyEvent(alone, event).nodes[nodeId];
  return folded ? { ...state, calls: { ...state.calls, [key]: folded } } : state;
}

function applyEvent(state: RunLiveState, event: LiveEvent): RunLiveState {
  const nodeId = event.nodeId;
  switch (event.type) {
    case "RUN_STARTED": {
      let next: RunLiveState = { ...state, status: "RUNNING" };
      for (const id of event.nodeIds ?? []) next = withNode(next, id, (node) => node);
      return next;
    }
    case "RUN_RESUMED":
      return { ...state, status: "RUNNING", resumptions: [...state.resumptions, { seq: event.seq, at: event.at, attempt: event.attempt }] };
    case "NODE_STARTED":
      return nodeId
        ? withNode(state, nodeId, (node) => ({ ...node, status: "RUNNING", startedAt: event.at, invocation: event.pipeline?.invocation ?? "", error: null }))
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
      return nodeId ? withNode(state, nodeId, (node) => ({ ...node, status: "SKIPPED", skipReason: event.reason })) : state;
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
    case "RUN_WAITING":
      return { ...state, status: "WAITING" };
    case "NODE_WAITING":
      return nodeId ? withNode(state, nodeId, (node) => ({ ...node, status: "WAITING" })) : state;
    case "HUMAN_TASK_COMPLETED":
      return nodeId ? withNode(state, nodeId, (node) => ({ ...node, status: "RUNNING" })) : state;
    default:
      return applyPipelineEvent(state, event);
  }
}

export function projectRun(events: readonly LiveEvent[], initial = initialRunLiveState()): RunLiveState {
  return events.reduce(applyRunEvent, initial);
}

export const isTerminalRunStatus = (status: RunStatusValue): boolean =>
  status === "COMPLETED" || status === "FAILED" || status === "CANCELLED";
