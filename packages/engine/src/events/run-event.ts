import type { HumanAction } from "../model/human-task.js";
import type { JsonValue } from "../model/json-value.js";
import type { LlmFinishReason, TokenUsage } from "../providers/llm-provider.js";
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
  /** US dollars the node's priced model calls cost (SPEC-V3 §3); absent when none had a price. */
  costUsd?: number;
  /** Provider attempts beyond the first, plus a parse-repair attempt if one was made. */
  retries: number;
  startedAt: string;
  finishedAt: string | null;
}

export interface EventError {
  code: string;
  message: string;
}

/** A tool call an agent's step asked for, as AGENT_STEP records it. */
export interface AgentStepCall {
  /** The provider's id of the call. */
  callId: string;
  /** The tool's name as the model saw it. */
  tool: string;
  /** The arguments' JSON text as the model wrote it. */
  arguments: string;
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
    /** When the task was opened: with completedAt, how long the person took. */
    openedAt: string;
  } & Invocation;
  /**
   * Step `step` (from 1) of an `agent` node (SPEC-V3 §3): the model answered with `text` and asked for
   * `calls` (none: its final answer). Recorded whole, so a resumed run replays the step instead of asking
   * the model again; `usage` is the step's tokens (its cost was spent).
   */
  AGENT_STEP: {
    nodeId: string;
    step: number;
    text: string;
    calls: AgentStepCall[];
    finishReason: LlmFinishReason | null;
    usage: TokenUsage | null;
  } & Invocation;
  /**
   * A tool call starts: `invocation` is the call's own (`"<agentId>@<step>.<n>"` under the agent's), the
   * node run of the call. `arguments` is the object the model wrote, or its text when that was no JSON object.
   */
  TOOL_CALLED: { nodeId: string; callId: string; tool: string; arguments: JsonValue } & Invocation;
  /** The call ended: `ok` false when the tool failed (the model is told why); `summary` is a short text of its result or error. */
  TOOL_RESULT: { nodeId: string; callId: string; tool: string; ok: boolean; summary: string } & Invocation;
  CACHE_HIT: { nodeId: string; similarity: number } & Invocation;
  CACHE_MISS: { nodeId: string } & Invocation;
  /** `state`: the final state channels, present when the workflow declares any. */
  /** `costUsd`: what the run's priced model calls cost, present when any had a price. */
  RUN_COMPLETED: { result: string | null; outputs: Record<string, string>; usage: TokenUsage; costUsd?: number; state?: Record<string, JsonValue> };
  RUN_FAILED: { error: EventError; failedNodeIds: string[]; outputs: Record<string, string>; usage: TokenUsage; costUsd?: number; state?: Record<string, JsonValue> };
  RUN_CANCELLED: { reason: string; outputs: Record<string, string>; usage: TokenUsage; costUsd?: number; state?: Record<string, JsonValue> };
  /**
   * Nothing can run until a person closes one of `taskIds`: this execution ends here (not the run),
   * holding nothing; the run continues from its stored events when a task is closed (RUN_RESUMED).
   */
  RUN_WAITING: { taskIds: string[]; outputs: Record<string, string>; usage: TokenUsage; costUsd?: number };
}

export type RunEventType = keyof Payloads;

/** What the engine and its hosts need to know of an event type besides its payload. */
interface EventTypeFacts {
  /** Which specification brought it: seed 000, SPEC-V2 §8 (pipelines), SPEC-V3 §2 (people in the loop) or §3 (agents). */
  group: "seed" | "pipeline" | "human" | "agent";
  /** It belongs to a node invocation's history: a resumed run emits it once only (identified by eventKey). */
  replayed?: true;
  /** It ends the run: nothing follows it. */
  terminal?: true;
}

/**
 * Every event type once, in the order the lists below (and the API's GraphQL enum) give them. A new
 * event type is a `Payloads` entry and a line here, which the compiler asks for.
 */
const EVENT_TYPE_FACTS = {
  RUN_STARTED: { group: "seed" },
  RUN_RESUMED: { group: "seed" },
  NODE_STARTED: { group: "seed" },
  NODE_TOKEN: { group: "seed" },
  NODE_DESCRIPTION: { group: "seed" },
  NODE_COMPLETED: { group: "seed", replayed: true },
  NODE_FAILED: { group: "seed", replayed: true },
  NODE_SKIPPED: { group: "seed", replayed: true },
  WARNING: { group: "seed" },
  RUN_COMPLETED: { group: "seed", terminal: true },
  RUN_FAILED: { group: "seed", terminal: true },
  RUN_CANCELLED: { group: "seed", terminal: true },
  BRANCH_TAKEN: { group: "pipeline", replayed: true },
  LOOP_ITERATION: { group: "pipeline", replayed: true },
  LOOP_EXHAUSTED: { group: "pipeline", replayed: true },
  MAP_STARTED: { group: "pipeline", replayed: true },
  MAP_ITEM_COMPLETED: { group: "pipeline", replayed: true },
  STATE_UPDATED: { group: "pipeline", replayed: true },
  CACHE_HIT: { group: "pipeline" },
  CACHE_MISS: { group: "pipeline" },
  NODE_WAITING: { group: "human", replayed: true },
  HUMAN_TASK_COMPLETED: { group: "human", replayed: true },
  RUN_WAITING: { group: "human" },
  AGENT_STEP: { group: "agent", replayed: true },
  TOOL_CALLED: { group: "agent", replayed: true },
  TOOL_RESULT: { group: "agent", replayed: true },
} as const satisfies Record<RunEventType, EventTypeFacts>;

type EventGroup = EventTypeFacts["group"];
type TypesOf<G extends EventGroup> = { [T in RunEventType]: (typeof EVENT_TYPE_FACTS)[T]["group"] extends G ? T : never }[RunEventType];

function typesWhere(holds: (facts: EventTypeFacts) => boolean | undefined): RunEventType[] {
  const facts: Record<RunEventType, EventTypeFacts> = EVENT_TYPE_FACTS;
  return (Object.keys(facts) as RunEventType[]).filter((type) => holds(facts[type]));
}

function typesOf<G extends EventGroup>(group: G): readonly TypesOf<G>[] {
  return typesWhere((facts) => facts.group === group) as TypesOf<G>[];
}

/**
 * The events of seed-000 runs. The API's GraphQL enum is built from this list; the events SPEC-V2 §8
 * adds are listed apart (PIPELINE_RUN_EVENT_TYPES) until the API exposes pipeline runs.
 */
export const RUN_EVENT_TYPES = typesOf("seed");

export const PIPELINE_RUN_EVENT_TYPES = typesOf("pipeline");

/** The events of agents and their tool calls (SPEC-V3 §3). */
export const AGENT_RUN_EVENT_TYPES = typesOf("agent");

/** The events of runs with people in the loop (SPEC-V3 §2). */
export const HUMAN_RUN_EVENT_TYPES = typesOf("human");

/** Events whose second emission a resumed run suppresses (identified by eventKey). */
export const REPLAYED_EVENT_TYPES: ReadonlySet<RunEventType> = new Set(typesWhere((facts) => facts.replayed));

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

export const TERMINAL_EVENT_TYPES: ReadonlySet<RunEventType> = new Set(typesWhere((facts) => facts.terminal));
