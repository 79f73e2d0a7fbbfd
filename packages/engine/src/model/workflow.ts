import type { JsonValue } from "./json-value.js";

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

/** The port of every node that is not a router (SPEC-V2 §2). */
export const DEFAULT_PORT = "out";

/**
 * The node types of seed 000 (SPEC §2), the only ones a `weft.workflow/v1` document may hold: a fact of
 * the frozen v1 format, so it is written here once and not on each definition (every later type is v2).
 */
export const SEED_NODE_TYPES: readonly string[] = Object.freeze(["input", "generation", "ensemble", "validation", "output"]);

export interface WorkflowNode {
  id: string;
  /** Key of a node-type definition in the registry (input, generation, ensemble, validation, output, …). */
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
  /**
   * The type-specific fields of SPEC-V2 (`cases`, `labels`, `template`, `items`, `body`, `schema`,
   * `writes`, …), validated by the type's config schema. In a document they sit flat on the node; the
   * parser gathers them here and the serializer flattens them back. Absent on seed-000 nodes.
   */
  config?: Record<string, JsonValue>;
}

/** Edges are kept in creation order: the order of a node's inputs is the order of its incoming edges. */
export interface WorkflowEdge {
  id: string;
  source: string;
  target: string;
  /** The source's output port; absent means `out`. */
  sourcePort?: string;
  /** Set on a loop edge: the id of the loop it belongs to. Loop edges are not data edges. */
  loop?: string;
}

/**
 * A bounded loop (SPEC-V2 §4): at most `max` iterations (1..100; a missing or out-of-range bound is
 * LOOP_BOUND_INVALID, reported by the rule checker); past it, a router takes port `exit` instead of the
 * loop edge, or fails with LOOP_EXHAUSTED when `exit` is null.
 */
export interface LoopDeclaration {
  id: string;
  max?: number;
  exit: string | null;
}

export const LOOP_MAX_BOUND = 100;

export const STATE_REDUCERS = ["replace", "append", "appendUnique", "merge"] as const;
export type StateReducer = (typeof STATE_REDUCERS)[number];
export const STATE_SCOPES = ["run", "thread"] as const;
export type StateScope = (typeof STATE_SCOPES)[number];

export interface StateChannel {
  reducer: StateReducer;
  /** appendUnique: the field of each item that identifies it. */
  key?: string;
  /** Default `run`; `thread` channels persist across the runs of a thread (the caller stores them). */
  scope?: StateScope;
}

export interface WorkflowLimits {
  /** Worst-case node invocations a run may need (default 1,000; at most 100,000). */
  maxInvocations?: number;
  /**
   * US dollars a run may spend on priced model calls: a call whose estimate would take the run past it
   * is not made, and the run fails with RUN_COST_EXCEEDED (SPEC-V3 §3; the estimate: providers/model-cost.ts).
   */
  maxCostUsd?: number;
}

/**
 * Nodes, edges and the loops declared over them. The body of a map or subgraph node is a graph of
 * this same shape, held in the node's `config.body`.
 */
export interface WorkflowGraph {
  nodes: WorkflowNode[];
  edges: WorkflowEdge[];
  loops?: LoopDeclaration[];
}

/** Prompts keyed by node type (generation, ensemble, validation, …). */
export type PromptSet = Record<string, string>;

export interface WorkflowSettings {
  prompts: PromptSet;
  outputFormat: string;
  knowledgeBase?: string | null;
  intensity?: SearchIntensity | null;
  /** State channels by name (SPEC-V2 §4). */
  state?: Record<string, StateChannel>;
  limits?: WorkflowLimits;
}

export interface Workflow extends WorkflowGraph, WorkflowSettings {
  name: string;
}
