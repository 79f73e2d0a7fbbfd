import type { JsonValue } from "../model/json-value.js";
import type { TokenUsage } from "./llm-provider.js";
import type { CallerCost } from "./model-cost.js";

/**
 * Published workflows as tools (SPEC-V3 §3 `{"type": "workflow"}`): the host (the API) looks them up
 * and runs them. A call runs as a child run of the calling run: an ordinary run in the history, linked to
 * the call that started it, executed by the caller's process as part of the call (never queued behind
 * other runs), and found again by that link when a resumed caller repeats an unfinished call.
 */
export interface WorkflowTools {
  /** The tool a published version offers: its input nodes as parameters. `version` null: the latest published. */
  describe(ref: WorkflowToolRef, signal: AbortSignal): Promise<WorkflowToolInfo>;
  /** Runs the version with the arguments as its inputs; resolves with the run's final output, or fails with its error. */
  call(call: WorkflowToolCall, signal: AbortSignal): Promise<WorkflowToolResult>;
}

export interface WorkflowToolRef {
  workflowId: string;
  version: number | null;
}

export interface WorkflowToolInfo {
  /** The workflow's tool name (its `mcp.toolName`, else made from its name), 1–64 of `[A-Za-z0-9_-]`. */
  name: string;
  description: string;
  /** JSON Schema of an object: one string property per input node, required unless it has content. */
  parameters: Record<string, unknown>;
  /** The version a call runs. */
  version: number;
}

export interface WorkflowToolCall {
  workflowId: string;
  version: number;
  /** By input node id. */
  arguments: Readonly<Record<string, JsonValue>>;
  /** The call: the same caller always gets the same child run (a resumed run repeating a call finds it). */
  caller: { runId: string; nodeId: string; invocation: string };
  /**
   * The calling run's budget, for the called run's `runWorkflow({callerCost})`: each of its priced model
   * calls reserves from it too, so it counts on the calling node run and run and is refused
   * (RUN_COST_EXCEEDED, the caller stopped) when it could take the caller past its `limits.maxCostUsd`.
   */
  cost: CallerCost;
}

export interface WorkflowToolResult {
  /** The child run's result (its output node's output). */
  output: JsonValue;
  runId: string;
  /** The called run's model tokens: added to the calling node run's usage. */
  usage: TokenUsage;
}
