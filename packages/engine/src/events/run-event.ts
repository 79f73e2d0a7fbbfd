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

interface Payloads {
  RUN_STARTED: { nodeIds: string[] };
  NODE_STARTED: { nodeId: string; nodeType: string };
  NODE_TOKEN: { nodeId: string; text: string };
  NODE_DESCRIPTION: { nodeId: string; description: string };
  NODE_COMPLETED: { nodeId: string; description: string; output: string; details: NodeRunDetails };
  NODE_FAILED: { nodeId: string; error: EventError; details: NodeRunDetails };
  NODE_SKIPPED: { nodeId: string; reason: "UPSTREAM_FAILED" | "RUN_CANCELLED"; blockedBy: string | null };
  WARNING: { nodeId?: string; code: string; message: string };
  RUN_COMPLETED: { result: string | null; outputs: Record<string, string>; usage: TokenUsage };
  RUN_FAILED: { error: EventError; failedNodeIds: string[]; outputs: Record<string, string>; usage: TokenUsage };
  RUN_CANCELLED: { reason: string; outputs: Record<string, string>; usage: TokenUsage };
}

export type RunEventType = keyof Payloads;
export const RUN_EVENT_TYPES = [
  "RUN_STARTED",
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

/** `seq` is strictly increasing per run, from 1; `at` is an ISO-8601 timestamp. */
export type RunEvent = {
  [T in RunEventType]: { seq: number; type: T; runId: string; at: string } & Payloads[T];
}[RunEventType];

export type RunEventOf<T extends RunEventType> = Extract<RunEvent, { type: T }>;

/** An event as emitted before the run stamps it with seq, runId and time. */
export type RunEventDraft = {
  [T in RunEventType]: { type: T } & Payloads[T];
}[RunEventType];

export const TERMINAL_EVENT_TYPES: ReadonlySet<RunEventType> = new Set([
  "RUN_COMPLETED",
  "RUN_FAILED",
  "RUN_CANCELLED",
]);
