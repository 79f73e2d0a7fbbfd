import type { NodeEventDraft, RunEventDraft } from "../events/run-event.js";
import { evaluateExpression, type ExpressionVariables } from "../expression/cel-expression.js";
import { WeftError } from "../model/errors.js";
import { jsonText, type JsonValue } from "../model/json-value.js";
import type { LlmProviders } from "../providers/llm-provider.js";
import type { Retriever } from "../providers/retrieval.js";
import type { BodyRunRequest, BodyRunResult, NodeExecutionContext } from "../registry/node-type-spec.js";
import type { Sleep } from "./abortable-sleep.js";
import { withRetries, type RetryOptions } from "./retry-policy.js";
import { nodeExecutionSettings, type RunSettings } from "./run-settings.js";
import { RUNNING } from "./scope-state.js";
import type { ScopeRun } from "./scope-run.js";

/** Run-wide things every node's context is made of. */
export interface NodeContextHost {
  readonly settings: RunSettings;
  readonly llm: LlmProviders;
  readonly retriever: Retriever | null;
  readonly signal: AbortSignal;
  readonly retry: RetryOptions;
  readonly sleep: Sleep;
  readonly random: () => number;
  readonly suppliedInputs: ReadonlyMap<string, string>;
  readonly runInputs: Readonly<Record<string, JsonValue>>;
  readonly finished: boolean;
  stateSnapshot(): Readonly<Record<string, JsonValue>>;
  /** 0-based count of the node's earlier invocations in the run (taken when it was admitted). */
  invocationIndex(nodeId: string): number;
  runBody(scope: ScopeRun, node: number, request: BodyRunRequest): Promise<BodyRunResult>;
  emit(event: RunEventDraft): void;
}

/** The context one invocation of a node executes with (see NodeExecutionContext). */
export function buildNodeContext(scope: ScopeRun, node: number, invocation: string): NodeExecutionContext {
  const { host, plan, options, state } = scope;
  const workflowNode = plan.nodes[node]!;
  const { values, bySource } = scope.inputsOf(node);
  const chain = plan.loopChain[node]!;
  const loops: Record<string, { iteration: number; max: number }> = { ...options.outerLoops };
  for (const loop of chain) loops[loop.id] = { iteration: state.loops[loop.index]!.iteration, max: loop.max };
  const innermost = chain.length > 0 ? state.loops[chain[chain.length - 1]!.index]! : null;
  if (innermost && plan.nodes[innermost.loop.header] === workflowNode) Object.assign(bySource, innermost.loopValues);
  const snapshot = host.stateSnapshot();
  const entry = node === plan.entryNode && options.entryValue !== undefined ? options.entryValue : undefined;
  const emit = (event: NodeEventDraft): void => {
    if (state.status[node] === RUNNING && !host.finished) host.emit({ ...event, invocation } as RunEventDraft);
  };
  const variables = (): ExpressionVariables => ({
    input: values.length === 1 ? values[0]! : values.length === 0 ? null : values,
    inputs: bySource,
    state: snapshot,
    loops,
    run: { inputs: host.runInputs },
    ...(options.item === undefined ? {} : { item: options.item }),
    ...(options.index === undefined ? {} : { index: options.index }),
  });
  return {
    node: workflowNode,
    inputs: values.map(jsonText),
    values,
    inputsBySource: bySource,
    suppliedContent: typeof entry === "string" ? entry : options.entryValue === undefined ? host.suppliedInputs.get(workflowNode.id) : undefined,
    ...(entry !== undefined && typeof entry !== "string" ? { suppliedValue: entry } : {}),
    runInputs: host.runInputs,
    state: snapshot,
    invocation,
    invocationIndex: host.invocationIndex(workflowNode.id),
    loops,
    feedback: innermost ? innermost.feedback : options.outerFeedback,
    iteration: innermost ? innermost.iteration : options.outerIteration,
    ...(options.item === undefined ? {} : { item: options.item }),
    ...(options.index === undefined ? {} : { index: options.index }),
    connectedPorts: plan.connectedPorts[node]!,
    settings: nodeExecutionSettings(host.settings, workflowNode),
    llm: host.llm,
    retriever: host.retriever,
    signal: host.signal,
    evaluate: (field) => {
      const compiled = plan.expressions[node]!.get(field);
      if (!compiled) throw new WeftError("EXPRESSION_FAILED", `node "${workflowNode.id}" has no expression ${field}`, { audience: "internal" });
      return evaluateExpression(compiled, variables(), `${field} of node "${workflowNode.id}"`);
    },
    runBody: (request) => host.runBody(scope, node, request),
    emit,
    withRetries: (call) =>
      withRetries(call, {
        options: host.retry,
        sleep: host.sleep,
        random: host.random,
        signal: host.signal,
        onRetry: ({ attempt, delayMs, error }) =>
          emit({
            type: "WARNING",
            nodeId: workflowNode.id,
            code: "PROVIDER_RETRY",
            message: `${error.code}: ${error.message}; retrying in ${delayMs} ms (attempt ${attempt + 1} of ${host.retry.attempts})`,
          }),
      }),
  };
}
