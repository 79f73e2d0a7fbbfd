import type { RunCost } from "../providers/model-cost.js";
import type { RunLimits } from "../limits/run-limits.js";
import type { RunEventDraft } from "../events/run-event.js";
import type { JsonValue } from "../model/json-value.js";
import type { WorkflowNode } from "../model/workflow.js";
import type { LlmProviders } from "../providers/llm-provider.js";
import type { Retriever } from "../providers/retrieval.js";
import type { ToolProviders } from "../providers/tool-providers.js";
import type { BodyRunRequest, BodyRunResult, ChildInvocationOutcome, ChildInvocationRequest, ExecutionSettings, RecordedEvent } from "../registry/node-type-definition.js";
import type { HumanTaskAnswer, HumanTaskRequest } from "../model/human-task.js";
import type { Sleep } from "../model/abortable-sleep.js";
import type { GraphPlan } from "./graph-plan.js";
import type { RetryOptions } from "./retry-policy.js";
import type { ScopeState } from "./scope-state.js";
import type { OrderKey } from "./state-store.js";

/** Run-wide things every node's context is made of. */
export interface NodeContextHost {
  readonly runId: string;
  /** The settings a node executes with (its prompt, the run's format and retrieval), the same for each of its invocations. */
  executionSettings(node: WorkflowNode): ExecutionSettings;
  readonly llm: LlmProviders;
  readonly retriever: Retriever | null;
  readonly tools: ToolProviders;
  readonly signal: AbortSignal;
  readonly retry: RetryOptions;
  readonly sleep: Sleep;
  readonly random: () => number;
  readonly suppliedInputs: ReadonlyMap<string, string>;
  readonly runInputs: Readonly<Record<string, JsonValue>>;
  readonly finished: boolean;
  /** The run's limits (SPEC-V3 §1). */
  readonly limits: RunLimits;
  /** What the run spends on priced model calls, against `limits.maxCostUsd`. */
  readonly cost: RunCost;
  stateSnapshot(): Readonly<Record<string, JsonValue>>;
  /** 0-based count of the node's earlier invocations in the run (taken when it was admitted). */
  invocationIndex(nodeId: string): number;
  emit(event: RunEventDraft): void;
  /** Opens the invocation's task for a person and settles with its answer (the run may pause meanwhile). */
  openTask(scope: ScopeView, node: number, invocation: string, request: HumanTaskRequest): Promise<HumanTaskAnswer>;
  /** Runs an invocation's own invocations (an agent's tool calls); see NodeExecutionContext.runInvocations. */
  runInvocations(scope: ScopeView, node: number, invocation: string, requests: readonly ChildInvocationRequest[]): Promise<ChildInvocationOutcome[]>;
  /** A resumed run: the journal events of `type` an earlier attempt recorded for this invocation. */
  recorded(nodeId: string, invocation: string, type: string): readonly RecordedEvent[];
}

/** Where a scope sits in the run: its invocation path, the value it starts from and the loops around it. */
export interface ScopeFrame {
  /** Invocation path of this scope (`""`, `"perQuestion[1]"`, `"regen#2/sub"`). */
  prefix: string;
  keyPrefix: OrderKey;
  /** The value the body's input node receives; absent at top level. */
  entryValue?: JsonValue;
  item?: JsonValue;
  index?: number;
  /** Loops enclosing the scope (from the graphs around it): for `loops` and `{iteration}`. */
  outerLoops: Readonly<Record<string, { iteration: number; max: number }>>;
  outerFeedback: string;
  outerIteration: number;
}

/**
 * What node contexts and loop control see of a running scope (ScopeRun implements it). Kept apart
 * from ScopeRun so that the scope can use them without them importing the scope back.
 */
export interface ScopeView {
  readonly host: NodeContextHost;
  readonly plan: GraphPlan;
  readonly options: ScopeFrame;
  readonly state: ScopeState;
  /** The node's inputs as delivered so far, in edge order. */
  inputsOf(node: number): { values: JsonValue[]; bySource: Record<string, JsonValue> };
  /** Runs a composite node's body (map item, subgraph) as a child scope. */
  runBody(node: number, request: BodyRunRequest): Promise<BodyRunResult>;
  /** Releases edges a finished loop held back, in edge order. */
  release(held: ReadonlyMap<number, { state: number; value: JsonValue | undefined }>): void;
  /** A node whose inputs are settled again (a loop header in a new iteration) is looked at once more. */
  reconsider(node: number): void;
}
