import type { z } from "zod";
import type { RunEventDraft, NodeRunDetails } from "../events/run-event.js";
import type { RuleCode } from "../model/violation.js";
import type { SearchIntensity, WorkflowNode } from "../model/workflow.js";
import type { LlmProviders } from "../providers/llm-provider.js";
import type { Retriever } from "../providers/retrieval.js";

/** Inclusive bounds; `max: Infinity` for unbounded. */
export interface Bounds {
  min: number;
  max: number;
}

/** How many nodes of a type a workflow holds, and the rule code reported when that is broken. */
export interface CountRule extends Bounds {
  code: RuleCode;
}

/** Settings a node executes with, resolved from the run request and the workflow. */
export interface ExecutionSettings {
  /** The prompt for this node: its own override, else the run's prompt for its type. */
  prompt: string;
  outputFormat: string;
  knowledgeBase: string | null;
  intensity: SearchIntensity;
  topK: number;
  /** Retry a parse failure once with the parser's message fed back to the model. */
  parseRepair: boolean;
  /** Stream tokens as NODE_TOKEN events. */
  streamTokens: boolean;
}

export interface NodeExecutionContext {
  node: WorkflowNode;
  /** Pre-node outputs in edge creation order. */
  inputs: string[];
  /** Content supplied by the run request for this (input) node, if any. */
  suppliedContent: string | undefined;
  settings: ExecutionSettings;
  llm: LlmProviders;
  retriever: Retriever | null;
  signal: AbortSignal;
  /** Emits a node-scoped event (NODE_TOKEN, NODE_DESCRIPTION, WARNING); the runner stamps seq/time. */
  emit(event: RunEventDraft): void;
  /** Provider calls go through this so the runner's retry policy applies uniformly. */
  withRetries<T>(call: (attempt: number) => Promise<T>): Promise<T>;
}

export interface NodeExecutionResult {
  description: string;
  output: string;
  details: Omit<NodeRunDetails, "startedAt" | "finishedAt">;
}

export type NodeExecutor = (context: NodeExecutionContext) => Promise<NodeExecutionResult>;

/**
 * One node type. The rule checker, the scheduler and the editor read these fields and never
 * switch on a type name, so adding a type is adding an entry.
 */
export interface NodeTypeSpec {
  type: string;
  label: string;
  /** Which UI component renders it. */
  component: "TextNode" | "ModelNode";
  /** Types allowed as pre-nodes. Empty: the type takes no pre-node. */
  accepts: readonly string[];
  /** Types allowed as post-nodes. Empty: the type feeds nothing. */
  feeds: readonly string[];
  inDegree: Bounds;
  outDegree: Bounds;
  count?: CountRule;
  /** Whether a node of this type calls a model (needs provider and model, uses a prompt). */
  usesModel: boolean;
  /** Validates the node's own attributes (content, provider, model, params, prompt). */
  attributes: z.ZodType;
  execute: NodeExecutor;
}
