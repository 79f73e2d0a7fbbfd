import type { PartialNodeDetails } from "./node-failure.js";
import type { RunLimits } from "../limits/run-limits.js";
import type { z } from "zod";
import type { EventError, NodeEventDraft, NodeRunDetails } from "../events/run-event.js";
import type { JsonValue } from "../model/json-value.js";
import type { RuleCode } from "../model/violation.js";
import type { SearchIntensity, WorkflowGraph, WorkflowNode } from "../model/workflow.js";
import type { LlmProviders } from "../providers/llm-provider.js";
import type { RunCost } from "../providers/model-cost.js";
import type { Retriever } from "../providers/retrieval.js";
import type { ToolProviders } from "../providers/tool-providers.js";
import type { HumanTaskAnswer, HumanTaskRequest } from "../model/human-task.js";

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
  /** top_k of the run's intensity. */
  topK: number;
  /** top_k of every intensity, for a node that names its own (an llm node's `intensity`). */
  topKByIntensity: Readonly<Record<SearchIntensity, number>>;
  /** Retry a parse failure once with the parser's message fed back to the model. */
  parseRepair: boolean;
  /** Stream tokens as NODE_TOKEN events. */
  streamTokens: boolean;
}

/** Where an invocation sits: its enclosing loops' iterations, and the map item it belongs to. */
export interface InvocationScope {
  /** `""` at top level, `"regen#2"`, `"perQuestion[1]/regen#2"`, … (SPEC-V2 §4). */
  invocation: string;
  /** 0-based count of this node's earlier invocations in the run (loop iterations, map items). */
  invocationIndex: number;
  /** Every loop enclosing the node, by loop id: `{ iteration (from 1), max }`. */
  loops: Readonly<Record<string, { iteration: number; max: number }>>;
  /** The innermost enclosing loop's `{feedback}` (empty on its first iteration) and `{iteration}`. */
  feedback: string;
  iteration: number;
  /** Inside a map body: the item and its 0-based index. */
  item?: JsonValue;
  index?: number;
}

/** What a map or subgraph asks the runner for: one run of its body graph. */
export interface BodyRunRequest {
  /** Appended to the invocation path: `"perQuestion[1]"` for an item, the node id for a subgraph. */
  segment: string;
  /** The value the body's input node receives. */
  input: JsonValue;
  item?: JsonValue;
  index?: number;
}

export type BodyRunResult = { ok: true; value: JsonValue } | { ok: false; error: { code: string; message: string } };

/** One piece of a node's work run as an invocation of its own, with its own node run: an agent's tool call. */
export interface ChildInvocationRequest {
  /** Appended to the node's invocation path (after `/` unless the node's is top level): `"research@3.1"`. */
  segment: string;
  /** The type its node run shows (`"tool"`). */
  nodeType: string;
  /** The work. `child.emit` stamps the child's invocation on the events it emits (TOOL_CALLED, TOOL_RESULT). */
  work(child: ChildInvocation): Promise<NodeExecutionResult>;
}

export interface ChildInvocation {
  /** The child's whole invocation path (`"research@3.1"`, `"regen#2/research@3.1"`). */
  readonly invocation: string;
  emit(event: NodeEventDraft): void;
  /** The details the work fills as it goes: a child stopped in flight (the run stopping) records them, spent cost included. */
  track(details: PartialNodeDetails): void;
}

/** How a child invocation ended; `replayed`: an earlier attempt of the run had finished it, and it did not run again. */
export type ChildInvocationOutcome =
  | { ok: true; result: NodeExecutionResult; replayed: boolean }
  | { ok: false; error: EventError; details: Omit<NodeRunDetails, "startedAt" | "finishedAt">; replayed: boolean };

/** An event an earlier attempt stored, as read back: its type and payload fields. */
export type RecordedEvent = { readonly type: string } & Readonly<Record<string, unknown>>;

export interface NodeExecutionContext extends InvocationScope {
  /** The run this invocation belongs to. */
  runId: string;
  node: WorkflowNode;
  /** Inputs as text (JSON values rendered as JSON), in edge creation order: what seed-000 types read. */
  inputs: string[];
  /** The same inputs as values, in edge creation order (only the edges that delivered one). */
  values: JsonValue[];
  /** Input values by source node id. */
  inputsBySource: Readonly<Record<string, JsonValue>>;
  /** Content supplied by the run request for this (input) node, if any. */
  suppliedContent: string | undefined;
  /** A non-text value supplied for this input node (a map item), if any. */
  suppliedValue?: JsonValue;
  /** The run's input contents by input node id (CEL `run.inputs`). */
  runInputs: Readonly<Record<string, JsonValue>>;
  /** State channels as they stood when the node started. */
  state: Readonly<Record<string, JsonValue>>;
  settings: ExecutionSettings;
  /** The run's limits (SPEC-V3 §1): rendered templates, parsed replies and expression budgets respect them. */
  limits: RunLimits;
  /** The run's spending on priced model calls (callModel reserves each call's estimate against `limits.maxCostUsd`). */
  cost: RunCost;
  llm: LlmProviders;
  retriever: Retriever | null;
  /** Knowledge bases, web search and the semantic cache for the tool types; each may be missing. */
  tools: ToolProviders;
  signal: AbortSignal;
  /** The node's ports that have at least one edge (a router may only fall back to a connected default). */
  connectedPorts: ReadonlySet<string>;
  /** Evaluates one of the node's CEL expressions (compiled at validation time) by its field path. */
  evaluate(field: string): JsonValue;
  /** Runs the node's body graph once (map and subgraph types); the runner owns its events and budget. */
  runBody(request: BodyRunRequest): Promise<BodyRunResult>;
  /**
   * Opens a task for a person (the `human` type) and settles with how it was closed. Meanwhile the
   * invocation holds no slot; when nothing else can run the execution ends WAITING, and the run
   * continues (from its stored events) once the task is closed.
   */
  openTask(request: HumanTaskRequest): Promise<HumanTaskAnswer>;
  /** Emits a node-scoped event (NODE_TOKEN, NODE_DESCRIPTION, WARNING, …); the runner stamps seq/time. */
  emit(event: NodeEventDraft): void;
  /**
   * Runs pieces of this invocation's work as invocations of their own (an agent's tool calls), all at
   * once, each with NODE_STARTED and NODE_COMPLETED or NODE_FAILED, counted against the run's budget.
   * Meanwhile this invocation holds no slot. In a resumed run, a child an earlier attempt had finished
   * is replayed from its events and not run again. A child's failure is its outcome, not this node's.
   */
  runInvocations(requests: readonly ChildInvocationRequest[]): Promise<ChildInvocationOutcome[]>;
  /**
   * A resumed run: the events of `type` (one of the journal types: AGENT_STEP) this invocation had
   * emitted in earlier attempts, in order; empty on a first attempt.
   */
  recorded(type: "AGENT_STEP"): readonly RecordedEvent[];
  /** Provider calls go through this so the runner's retry policy applies uniformly. */
  withRetries<T>(call: (attempt: number) => Promise<T>): Promise<T>;
}

export interface NodeExecutionResult {
  description: string;
  /** The node's output: text for the seed-000 types, any JSON value for the others. */
  output: JsonValue;
  /** What flows on its out-edges when it differs from `output` (routers pass their input through). */
  value?: JsonValue;
  /** Router types: the ports taken. Default: `["out"]`. */
  ports?: string[];
  /** A router that takes a loop edge may say why: the loop header's `{feedback}`. */
  feedback?: string;
  details: Omit<NodeRunDetails, "startedAt" | "finishedAt">;
}

export type NodeExecutor = (context: NodeExecutionContext) => Promise<NodeExecutionResult>;

/** A user's regular expression held in a node's config, located by its field path (`patterns[2]`, `schema.properties.id.pattern`). */
export interface NodePattern {
  field: string;
  source: string;
}

/** A CEL expression held in a node's config, located by its field path (`cases[1].when`, `items`). */
export interface NodeExpression {
  field: string;
  source: string;
  /** `list`: must evaluate to a list (map items). */
  kind: "value" | "list";
}

/**
 * A rule about one node's own config that its schema cannot say (ids that must differ, a schema that
 * must be usable): reported as a violation of the node, with the rule's code and the field.
 */
export interface NodeConfigIssue {
  code: RuleCode;
  /** Without the node: the checker says which node. */
  message: string;
  /** The config field, e.g. `actions[1].id`. */
  field: string;
  /** 0-based character offset of the problem in the field's text (0 when it is the whole value). */
  position: number;
}

/** Routers: nodes with ports other than `out` (SPEC-V2 §2). */
export interface RouterSpec {
  /** Every port of the node, in display order; `default` last where there is one. */
  ports(node: WorkflowNode): readonly string[];
  /** Ports that must have an edge (BRANCH_UNCONNECTED): case and label ports, not `default`. */
  requiredPorts(node: WorkflowNode): readonly string[];
  /** Whether one invocation takes exactly one port (so nodes behind different ports never both run). */
  exclusive(node: WorkflowNode): boolean;
  /** The config field whose entries add ports (`cases`, `labels`), for the node catalogue. */
  portsField?: string;
}

/** Map and subgraph types: an inline graph run by the runner on the node's behalf. */
export interface BodySpec {
  graph(node: WorkflowNode): WorkflowGraph | null;
  /** Worst-case runs of the body per invocation of the node (map: maxItems), for the budget. */
  runsPerInvocation(node: WorkflowNode): number;
  /** How many runs of the body may be in flight at once (map: concurrency), for STATE_WRITE_CONFLICT. */
  parallelRuns(node: WorkflowNode): number;
  /** Whether the body sees `{item}`/`{index}` (and CEL `item`, `index`): a map's does, a subgraph's does not. */
  itemScope: boolean;
}

/**
 * One node type. The rule checker, the scheduler and the editor read these fields and never switch on
 * a type name, so adding a type is adding its folder under `node-types/` and one line in the list
 * (docs/adding-a-node-type.md).
 */
export interface NodeTypeDefinition {
  type: string;
  label: string;
  /** Which UI component renders it. */
  component: "TextNode" | "ModelNode" | "RouterNode" | "JoinNode" | "TemplateNode" | "MapNode" | "SubgraphNode" | "ToolNode";
  /** One sentence for the node catalogue. */
  description?: string;
  /** Types allowed as pre-nodes. Empty: the type takes no pre-node. */
  accepts: readonly string[];
  /** Types allowed as post-nodes. Empty: the type feeds nothing. */
  feeds: readonly string[];
  /** Also accept every registered type not named here (the registry adds them after `accepts`). */
  acceptsAnyExcept?: readonly string[];
  /** Also feed every registered type not named here (the registry adds them after `feeds`). */
  feedsAnyExcept?: readonly string[];
  /** Data edges in and out (loop edges are not counted). */
  inDegree: Bounds;
  outDegree: Bounds;
  count?: CountRule;
  /** Whether a node of this type calls a model (needs provider and model). */
  usesModel: boolean;
  /** Whether a node of this type reads the run's thread (`history`): a workflow with one runs on a thread. */
  usesThread?: boolean;
  /** Whether its prompt comes from the workflow's prompts by type (seed model types; default: usesModel). */
  workflowPrompt?: boolean;
  /** Validates the node's own attributes (content, provider, model, params, prompt). */
  attributes: z.ZodType;
  /**
   * Validates `node.config` (strict). Its zod metadata (`description`, `x-weft-kind`) is the field
   * list of the node catalogue and the editor's forms (see `describeNodeType`).
   */
  config?: z.ZodType;
  /**
   * The config a new node of this type starts with (the palette, addNode without config): it must pass
   * `config` and the edit-time rules (a test checks every type). Absent: `{}`, for types whose fields
   * are all optional.
   */
  defaultConfig?: Readonly<Record<string, JsonValue>>;
  router?: RouterSpec;
  body?: BodySpec;
  /**
   * When a node with several inputs starts (SPEC-V2 §4): `all` (the default) once every incoming edge
   * is resolved and one delivered; `first` as soon as one delivers (later ones are ignored).
   */
  readiness?(node: WorkflowNode): "all" | "first";
  /** The CEL expressions in a node's config, compiled at validation time. */
  expressions?(node: WorkflowNode): NodeExpression[];
  /** The regular expressions in a node's config (RE2 syntax; PATTERN_INVALID at edit time). */
  patterns?(node: WorkflowNode): NodePattern[];
  /** The type's own rules over a node's config, beyond its schema (each issue with its own code). */
  configRules?(node: WorkflowNode): NodeConfigIssue[];
  execute: NodeExecutor;
}
