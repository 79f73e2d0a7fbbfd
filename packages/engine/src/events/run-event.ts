import type { HumanAction } from "../model/human-task.js";
import type { JsonValue } from "../model/json-value.js";
import type { TokenUsage } from "../providers/llm-provider.js";
import type { ScoredChunk } from "../providers/retrieval.js";

/** Everything recorded about one node's execution; persisted as the node run. */
export interface NodeRunDetails {
  inputs: string[];
  renderedPrompt: string | null;
  context: ScoredChunk[];
  store: string | null;
  rawReply: string | null;
  provider: string | null;
  model: string | null;
  usage: TokenUsage | null;
  /** Provider attempts beyond the first, plus a parse-repair attempt if one was made. */
  retries: number;
  startedAt: string;
  finishedAt: string | null;
}

export interface EventError {
  code: string;
  message: string;
}

/** Why a node did not run (SPEC-V2 §8). */
export type SkipReason = "BRANCH_NOT_TAKEN" | "UPSTREAM_FAILED" | "RUN_CANCELLED";

/**
 * `invocation` names one execution of a node (SPEC-V2 §4): `""` at top level and in a loop's first
 * iteration, `"regen#2"`, `"perQuestion[1]"`, nested with `/`. Every NODE_* event carries it.
 */
interface Invocation {
  invocation: string;
}

interface Payloads {
  RUN_STARTED: { nodeIds: string[] };
  /**
   * A run another worker had started continues here (that worker stopped): `attempt` is this execution's
   * number (2 for the first resumption). Nodes that had finished are not executed again; nodes that were
   * running start again (a new NODE_STARTED).
   */
  RUN_RESUMED: { attempt: number };
  NODE_STARTED: { nodeId: string; nodeType: string } & Invocation;
  NODE_TOKEN: { nodeId: string; text: string } & Invocation;
  NODE_DESCRIPTION: { nodeId: string; description: string } & Invocation;
  /**
   * `output` is the node's output as text; `value` is set when that output is not a string (JSON).
   * Routers add `ports` (the ports taken, as BRANCH_TAKEN says next), `passed` (what flows on their
   * out-edges: their input) and, when they took a loop edge with a reason, `feedback`: with them a
   * resumed run re-derives its position from finished invocations alone.
   */
  NODE_COMPLETED: {
    nodeId: string;
    description: string;
    output: string;
    value?: JsonValue;
    ports?: string[];
    passed?: JsonValue;
    feedback?: string;
    details: NodeRunDetails;
  } & Invocation;
  NODE_FAILED: { nodeId: string; error: EventError; details: NodeRunDetails } & Invocation;
  NODE_SKIPPED: { nodeId: string; reason: SkipReason; blockedBy: string | null } & Invocation;
  WARNING: { nodeId?: string; code: string; message: string; invocation?: string };
  /** A router took `ports`; edges out of `skipped` (its other ports) are dead. */
  BRANCH_TAKEN: { nodeId: string; ports: string[]; skipped: string[] } & Invocation;
  /** Iteration `iteration` (from 2) of a loop starts; `invocation` is its path prefix (`"regen#2"`). */
  LOOP_ITERATION: { loopId: string; iteration: number; max: number; feedback: string } & Invocation;
  /** A router would have started iteration max + 1: it took `exit` instead, or (exit null) failed. */
  LOOP_EXHAUSTED: { loopId: string; nodeId: string; max: number; exit: string | null } & Invocation;
  MAP_STARTED: { nodeId: string; items: number } & Invocation;
  MAP_ITEM_COMPLETED: { nodeId: string; index: number } & Invocation;
  /** Opt-in (run option `stateEvents`): a node's write changed a state channel. */
  STATE_UPDATED: { channel: string; nodeId: string } & Invocation;
  /**
   * A `human` node opened task `taskId` (SPEC-V3 §2) and waits for it; `expiresAt` is null without a
   * timeout. The rest is what the task shows: the rendered title and instructions, the node's input
   * (with `editable` the form's starting data) and its assignee.
   */
  NODE_WAITING: {
    nodeId: string;
    taskId: string;
    actions: HumanAction[];
    form: JsonValue | null;
    expiresAt: string | null;
    title: string;
    instructions: string;
    input: JsonValue;
    editable: boolean;
    assignee: string | null;
    /** The action an expiry takes; null: the node fails with HUMAN_TIMEOUT. */
    onTimeout: string | null;
  } & Invocation;
  /**
   * Task `taskId` was closed and its node goes on: `action` and `by` (the key's name) for a completion;
   * for an expiry `expired: true`, `by: null` and the node's `onTimeout` action (null: it fails).
   */
  HUMAN_TASK_COMPLETED: {
    nodeId: string;
    taskId: string;
    action: string | null;
    by: string | null;
    data: JsonValue;
    comment: string | null;
    completedAt: string;
    expired: boolean;
  } & Invocation;
  CACHE_HIT: { nodeId: string; similarity: number } & Invocation;
  CACHE_MISS: { nodeId: string } & Invocation;
  /** `state`: the final state channels, present when the workflow declares any. */
  RUN_COMPLETED: { result: string | null; outputs: Record<string, string>; usage: TokenUsage; state?: Record<string, JsonValue> };
  RUN_FAILED: { error: EventError; failedNodeIds: string[]; outputs: Record<string, string>; usage: TokenUsage; state?: Record<string, JsonValue> };
  RUN_CANCELLED: { reason: string; outputs: Record<string, string>; usage: TokenUsage; state?: Record<string, JsonValue> };
  /**
   * Nothing can run until a person closes one of `taskIds`: this execution ends here (not the run),
   * holding nothing; the run continues from its stored events when a task is closed (RUN_RESUMED).
   */
  RUN_WAITING: { taskIds: string[]; outputs: Record<string, string>; usage: TokenUsage };
}

export type RunEventType = keyof Payloads;

/**
 * The events of seed-000 runs. The API's GraphQL enum is built from this list; the events SPEC-V2 §8
 * adds are listed apart (PIPELINE_RUN_EVENT_TYPES) until the API exposes pipeline runs.
 */
export const RUN_EVENT_TYPES = [
  "RUN_STARTED",
  "RUN_RESUMED",
  "NODE_STARTED",
  "NODE_TOKEN",
  "NODE_DESCRIPTION",
  "NODE_COMPLETED",
  "NODE_FAILED",
  "NODE_SKIPPED",
  "WARNING",
  "RUN_COMPLETED",
  "RUN_FAILED",
  "RUN_CANCELLED",
] as const satisfies readonly RunEventType[];

export const PIPELINE_RUN_EVENT_TYPES = [
  "BRANCH_TAKEN",
  "LOOP_ITERATION",
  "LOOP_EXHAUSTED",
  "MAP_STARTED",
  "MAP_ITEM_COMPLETED",
  "STATE_UPDATED",
  "CACHE_HIT",
  "CACHE_MISS",
] as const satisfies readonly RunEventType[];

/** The events of runs with people in the loop (SPEC-V3 §2). */
export const HUMAN_RUN_EVENT_TYPES = ["NODE_WAITING", "HUMAN_TASK_COMPLETED", "RUN_WAITING"] as const satisfies readonly RunEventType[];

/** `seq` is strictly increasing per run, from 1; `at` is an ISO-8601 timestamp. */
export type RunEvent = {
  [T in RunEventType]: { seq: number; type: T; runId: string; at: string } & Payloads[T];
}[RunEventType];

export type RunEventOf<T extends RunEventType> = Extract<RunEvent, { type: T }>;

/** An event as emitted before the run stamps it with seq, runId and time. */
export type RunEventDraft = {
  [T in RunEventType]: { type: T } & Payloads[T];
}[RunEventType];

/** What a node's executor emits: the runner stamps the invocation on it. */
export type NodeEventDraft = {
  [T in RunEventType]: { type: T } & Omit<Payloads[T], "invocation">;
}[RunEventType];

export const TERMINAL_EVENT_TYPES: ReadonlySet<RunEventType> = new Set([
  "RUN_COMPLETED",
  "RUN_FAILED",
  "RUN_CANCELLED",
]);
