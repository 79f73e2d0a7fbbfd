import type { JsonValue } from "../model/json-value.js";
import type { PromptSet, SearchIntensity, WorkflowNode, WorkflowSettings } from "../model/workflow.js";
import type { ExecutionSettings } from "../registry/node-type-definition.js";

/** What a run request may set (seed 000, client side); anything left out comes from the workflow. */
export interface RunRequest {
  /** Prompts by node type; merged over the workflow's prompts. */
  prompts?: PromptSet;
  outputFormat?: string;
  /** `null` or "" runs without a knowledge base even if the workflow names one. */
  knowledgeBase?: string | null;
  intensity?: SearchIntensity | null;
  /** Content for input nodes, by node id; replaces the node's stored content for this run. */
  inputs?: Record<string, string>;
  /** Stream model replies as NODE_TOKEN events (default false). */
  streamTokens?: boolean;
  /** Starting values of state channels by name (the thread-scoped ones a host carries between runs). */
  state?: Record<string, JsonValue>;
}

export type TopKByIntensity = Record<SearchIntensity, number>;

export const DEFAULT_TOP_K: TopKByIntensity = { LOW: 3, MEDIUM: 5, HIGH: 10 };
export const DEFAULT_INTENSITY: SearchIntensity = "MEDIUM";

/** Used by a model node when neither the node nor the run has a prompt for its type (a WARNING says so). */
export const FALLBACK_PROMPT = "{input_data}\n\nReply in this format: {output_format}";

/**
 * The settings a run executes with, resolved once by prepareRun: what each node executes with
 * (ExecutionSettings, whose fields say what they mean), with the prompts by node type in place of
 * one node's prompt.
 */
export interface RunSettings extends Omit<ExecutionSettings, "prompt" | "topKByIntensity"> {
  prompts: PromptSet;
  /**
   * The host's top_k for every intensity (RunPolicy.topK over DEFAULT_TOP_K), for a node that names its
   * own intensity; absent in runs prepared before it was frozen with them: DEFAULT_TOP_K.
   */
  topKByIntensity?: TopKByIntensity;
}

/** Request values override the workflow's defaults (SPEC §4). Called by prepareRun, and nowhere else. */
export function resolveRunSettings(
  workflow: WorkflowSettings,
  request: RunRequest,
  behaviour: { topK: TopKByIntensity; parseRepair: boolean; streamTokens: boolean },
): RunSettings {
  const knowledgeBase = request.knowledgeBase !== undefined ? request.knowledgeBase : workflow.knowledgeBase;
  const intensity = request.intensity ?? workflow.intensity ?? DEFAULT_INTENSITY;
  return {
    prompts: { ...workflow.prompts, ...request.prompts },
    outputFormat: request.outputFormat ?? workflow.outputFormat,
    knowledgeBase: knowledgeBase ? knowledgeBase : null,
    intensity,
    topK: behaviour.topK[intensity],
    topKByIntensity: behaviour.topK,
    parseRepair: behaviour.parseRepair,
    streamTokens: behaviour.streamTokens,
  };
}

/** The settings one node executes with: its own prompt override, else the run's prompt for its type. */
export function nodeExecutionSettings(run: RunSettings, node: WorkflowNode): ExecutionSettings {
  const { prompts, topKByIntensity, ...shared } = run;
  return { ...shared, prompt: node.prompt ?? prompts[node.type] ?? "", topKByIntensity: topKByIntensity ?? DEFAULT_TOP_K };
}
