/** The live view's state and events: what run-projection.ts and pipeline-events.ts fold and read. */

import type { AgentEventFields } from "./agent-event.type";
import type { PipelineEventFields } from "./pipeline-event.type";

/** WAITING: the run waits for a person (a human task); no process holds it. */
export type RunStatusValue = "QUEUED" | "RUNNING" | "WAITING" | "COMPLETED" | "FAILED" | "CANCELLED";
/** WAITING: a human node whose task is open. */
export type NodeStatusValue = "PENDING" | "RUNNING" | "WAITING" | "COMPLETED" | "FAILED" | "SKIPPED";

/** An event as the pages use it, read from its kind's fields in RunEventFields (toLiveEvent, run-event-stream.ts). */
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
  /** RUN_RESUMED: the attempt that took the run over after its worker stopped (from 2). */
  attempt: number | null;
  /** weft.workflow/v2 (null otherwise): see pipeline-events.ts. */
  pipeline: PipelineEventFields | null;
  /** AGENT_STEP, TOOL_CALLED, TOOL_RESULT (null otherwise): see agent-trace.ts. */
  agent: AgentEventFields | null;
}

export interface NodeLiveState {
  status: NodeStatusValue;
  description: string | null;
  tokens: string;
  output: string | null;
  error: { code: string; message: string } | null;
  startedAt: string | null;
  finishedAt: string | null;
  /** The execution the state is of (SPEC-V2 §4): "" at top level, "regen#2" in a loop's second iteration. */
  invocation: string;
  /** NODE_SKIPPED: why (BRANCH_NOT_TAKEN, UPSTREAM_FAILED, RUN_CANCELLED). */
  skipReason: string | null;
  /** A router's last decision: the ports it took and the ones whose edges died. */
  branch: { ports: readonly string[]; skipped: readonly string[] } | null;
  /** A map node's progress: items in its list, items done. */
  map: { items: number; done: number } | null;
  /** A cache lookup's last answer. */
  cache: { hit: boolean; similarity: number | null } | null;
}

export interface RunLiveState {
  status: RunStatusValue;
  nodes: Record<string, NodeLiveState>;
  /** Loops by id: the iteration under way, the bound, the feedback that started it, the seq of its LOOP_ITERATION. */
  loops: Record<string, { iteration: number; max: number | null; feedback: string | null; seq: number }>;
  warnings: { seq: number; nodeId: string | null; code: string; message: string }[];
  /** RUN_RESUMED: each time another worker took the run over, when and as which attempt. */
  resumptions: { seq: number; at: string; attempt: number | null }[];
  result: string | null;
  error: { code: string; message: string } | null;
  /**
   * Agents' tool calls by `<nodeId>@<invocation>` (the timeline's row id): each call is an execution of
   * its own under the agent's node id, kept apart so the agent's card keeps the agent's state.
   */
  calls: Record<string, NodeLiveState>;
}

export function initialRunLiveState(status: RunStatusValue = "QUEUED"): RunLiveState {
  return { status, nodes: {}, loops: {}, warnings: [], resumptions: [], result: null, error: null, calls: {} };
}

export const emptyNode = (): NodeLiveState => ({
  status: "PENDING",
  description: null,
  tokens: "",
  output: null,
  error: null,
  startedAt: null,
  finishedAt: null,
  invocation: "",
  skipReason: null,
  branch: null,
  map: null,
  cache: null,
});

export function withNode(
  state: RunLiveState,
  nodeId: string,
  change: (node: NodeLiveState) => NodeLiveState,
): RunLiveState {
  const current = state.nodes[nodeId] ?? emptyNode();
  return { ...state, nodes: { ...state.nodes, [nodeId]: change(current) } };
}
