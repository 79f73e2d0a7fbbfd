/**
 * The workflow graph as the engine sees it. Node types are plain strings that name an entry of the
 * node-type registry, so new types never change these shapes.
 */

export const SEARCH_INTENSITIES = ["LOW", "MEDIUM", "HIGH"] as const;
export type SearchIntensity = (typeof SEARCH_INTENSITIES)[number];

export interface NodePosition {
  x: number;
  y: number;
}

export interface WorkflowNode {
  id: string;
  /** Key of a node-type spec in the registry (input, generation, ensemble, validation, output, …). */
  type: string;
  /** Text nodes (input/output): the node's content. */
  content?: string;
  /** Model nodes: provider id and model id, both resolved against the configured providers. */
  provider?: string;
  model?: string;
  /** Model nodes: provider parameters (temperature, maxTokens, …) and offline test knobs (delayMs). */
  params?: Record<string, unknown>;
  /** Model nodes: replaces the workflow's prompt for this node's type. */
  prompt?: string;
  position?: NodePosition;
}

/** Edges are kept in creation order: the order of a node's inputs is the order of its incoming edges. */
export interface WorkflowEdge {
  id: string;
  source: string;
  target: string;
}

export interface WorkflowGraph {
  nodes: WorkflowNode[];
  edges: WorkflowEdge[];
}

/** Prompts keyed by node type (generation, ensemble, validation, …). */
export type PromptSet = Record<string, string>;

export interface WorkflowSettings {
  prompts: PromptSet;
  outputFormat: string;
  knowledgeBase?: string | null;
  intensity?: SearchIntensity | null;
}

export interface Workflow extends WorkflowGraph, WorkflowSettings {
  name: string;
}
