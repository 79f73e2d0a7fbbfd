import type { RunLimits } from "../limits/run-limits.js";
import type { NodeEventDraft, RunEventDraft } from "../events/run-event.js";
import { evaluateExpression, type ExpressionVariables } from "../expression/cel-expression.js";
import { WeftError } from "../model/errors.js";
import { jsonText, type JsonValue } from "../model/json-value.js";
import type { LlmProviders } from "../providers/llm-provider.js";
import type { RunCost } from "../providers/model-cost.js";
import type { Retriever } from "../providers/retrieval.js";
import type { ToolProviders } from "../providers/tool-providers.js";
import type {
  BodyRunRequest,
  BodyRunResult,
  ChildInvocationOutcome,
  ChildInvocationRequest,
  ExecutionSettings,
  NodeExecutionContext,
  RecordedEvent,
} from "../registry/node-type-definition.js";
import type { HumanTaskAnswer, HumanTaskRequest } from "../model/human-task.js";
import { withRetries } from "./retry-policy.js";
import type { WorkflowNode } from "../model/workflow.js";
import { RUNNING } from "./scope-state.js";
import type { ScopeView } from "./scope-view.js";

/**
 * The context one invocation of a node executes with (see NodeExecutionContext). A class, so an
 * invocation allocates one object and no closures: its methods live on the prototype.
 */
class NodeContext implements NodeExecutionContext {
  readonly runId: string;
  readonly node: WorkflowNode;
  readonly inputs: string[];
  readonly values: JsonValue[];
  readonly inputsBySource: Record<string, JsonValue>;
  readonly suppliedContent: string | undefined;
  readonly suppliedValue?: JsonValue;
  readonly runInputs: Readonly<Record<string, JsonValue>>;
  readonly state: Readonly<Record<string, JsonValue>>;
  readonly invocationIndex: number;
  readonly loops: Readonly<Record<string, { iteration: number; max: number }>>;
  readonly feedback: string;
  readonly iteration: number;
  readonly item?: JsonValue;
  readonly index?: number;
  readonly connectedPorts: ReadonlySet<string>;
  readonly settings: ExecutionSettings;
  readonly limits: RunLimits;
  readonly cost: RunCost;
  readonly llm: LlmProviders;
  readonly retriever: Retriever | null;
  readonly tools: ToolProviders;
  readonly signal: AbortSignal;

  constructor(
    private readonly scope: ScopeView,
    private readonly position: number,
    readonly invocation: string,
  ) {
    const { host, plan, options, state } = scope;
    const workflowNode = plan.nodes[position]!;
    const { values, bySource } = scope.inputsOf(position);
    const chain = plan.loopChain[position]!;
    let loops = options.outerLoops;
    if (chain.length > 0) {
      const own: Record<string, { iteration: number; max: number }> = { ...options.outerLoops };
      for (const loop of chain) own[loop.id] = { iteration: state.loops[loop.index]!.iteration, max: loop.max };
      loops = own;
    }
    const innermost = chain.length > 0 ? state.loops[chain[chain.length - 1]!.index]! : null;
    if (innermost && plan.nodes[innermost.loop.header] === workflowNode) Object.assign(bySource, innermost.loopValues);
    const entry = position === plan.entryNode && options.entryValue !== undefined ? options.entryValue : undefined;
    this.runId = host.runId;
    this.node = workflowNode;
    this.inputs = values.map(jsonText);
    this.values = values;
    this.inputsBySource = bySource;
    this.suppliedContent = typeof entry === "string" ? entry : options.entryValue === undefined ? host.suppliedInputs.get(workflowNode.id) : undefined;
    if (entry !== undefined && typeof entry !== "string") this.suppliedValue = entry;
    this.runInputs = host.runInputs;
    this.state = host.stateSnapshot();
    this.invocationIndex = host.invocationIndex(workflowNode.id);
    this.loops = loops;
    this.feedback = innermost ? innermost.feedback : options.outerFeedback;
    this.iteration = innermost ? innermost.iteration : options.outerIteration;
    if (options.item !== undefined) this.item = options.item;
    if (options.index !== undefined) this.index = options.index;
    this.connectedPorts = plan.connectedPorts[position]!;
    this.settings = host.executionSettings(workflowNode);
    this.limits = host.limits;
    this.cost = host.cost;
    this.llm = host.llm;
    this.retriever = host.retriever;
    this.tools = host.tools;
    this.signal = host.signal;
  }

  emit(event: NodeEventDraft): void {
    const { host, state } = this.scope;
    if (state.status[this.position] === RUNNING && !host.finished) host.emit({ ...event, invocation: this.invocation } as RunEventDraft);
  }

  evaluate(field: string): JsonValue {
    const compiled = this.scope.plan.expressions[this.position]!.get(field);
    if (!compiled) throw new WeftError("EXPRESSION_FAILED", `node "${this.node.id}" has no expression ${field}`, { audience: "internal" });
    return evaluateExpression(compiled, this.#variables(), `${field} of node "${this.node.id}"`, this.limits);
  }

  runBody(request: BodyRunRequest): Promise<BodyRunResult> {
    return this.scope.runBody(this.position, request);
  }

  openTask(request: HumanTaskRequest): Promise<HumanTaskAnswer> {
    return this.scope.host.openTask(this.scope, this.position, this.invocation, request);
  }

  runInvocations(requests: readonly ChildInvocationRequest[]): Promise<ChildInvocationOutcome[]> {
    return this.scope.host.runInvocations(this.scope, this.position, this.invocation, requests);
  }

  recorded(type: "AGENT_STEP"): readonly RecordedEvent[] {
    return this.scope.host.recorded(this.node.id, this.invocation, type);
  }

  withRetries<T>(call: (attempt: number) => Promise<T>): Promise<T> {
    const { host } = this.scope;
    return withRetries(call, {
      options: host.retry,
      sleep: host.sleep,
      random: host.random,
      signal: host.signal,
      onRetry: ({ attempt, delayMs, error }) =>
        this.emit({
          type: "WARNING",
          nodeId: this.node.id,
          code: "PROVIDER_RETRY",
          message: `${error.code}: ${error.message}; retrying in ${delayMs} ms (attempt ${attempt + 1} of ${host.retry.attempts})`,
        }),
    });
  }

  /** CEL's variables (SPEC-V2 §2): `input` is the value with one input, the list with several. */
  #variables(): ExpressionVariables {
    const { values } = this;
    return {
      input: values.length === 1 ? values[0]! : values.length === 0 ? null : values,
      inputs: this.inputsBySource,
      state: this.state,
      loops: this.loops,
      run: { inputs: this.runInputs },
      ...(this.item === undefined ? {} : { item: this.item }),
      ...(this.index === undefined ? {} : { index: this.index }),
    };
  }
}

export function buildNodeContext(scope: ScopeView, node: number, invocation: string): NodeExecutionContext {
  return new NodeContext(scope, node, invocation);
}
