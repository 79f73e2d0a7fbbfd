/**
 * TEST-ONLY ORACLE, not exported: the seed-000 run entry point as it stood before the SPEC-V2 code paths replaced
 * it, kept verbatim apart from its imports so the v1 freeze property test (v1-freeze.test.ts) can check
 * that every v1 document yields the same violations and the same run events through the new paths.
 * Do not change its behaviour.
 */
import { WeftError } from "../../model/errors.js";
import type { WorkflowGraph, WorkflowSettings } from "../../model/workflow.js";
import type { LlmProviders } from "../../providers/llm-provider.js";
import type { Retriever } from "../../providers/retrieval.js";
import type { NodeTypeRegistry } from "../../registry/node-type-registry.js";
import { abortableSleep, type Sleep } from "../../model/abortable-sleep.js";
import type { ConcurrencyLimiter } from "../../execute/concurrency-limiter.js";
import { planDataflow, type DataflowPlan } from "../../execute/dataflow-plan.js";
import { DEFAULT_RETRY_OPTIONS, type RetryOptions } from "../../execute/retry-policy.js";
import type { RunEventHandler } from "../../execute/run-event-sink.js";
import { DEFAULT_TOP_K, resolveRunSettings, type RunRequest, type TopKByIntensity } from "../../execute/run-settings.js";
import { WorkflowRunner, type RunOutcome } from "./workflow-runner.oracle.js";

interface RunOptions {
  /** Nodes of this run executing at once (default 16; `Infinity` for no cap). */
  concurrency?: number;
  /** Shared by several runs to cap the whole process; applied on top of `concurrency`. */
  limiter?: ConcurrencyLimiter;
  retry?: Partial<RetryOptions>;
  /** Ask the model once more, with the parser's message, when its reply does not parse (default true). */
  parseRepair?: boolean;
  /** Stream model replies as NODE_TOKEN events (default false). */
  streamTokens?: boolean;
  /** top_k per search intensity (default LOW 3, MEDIUM 5, HIGH 10). */
  topK?: Partial<TopKByIntensity>;
  /** Milliseconds since the epoch, for event times (default Date.now). */
  clock?: () => number;
  /** Backoff waits (default: an abortable setTimeout). */
  sleep?: Sleep;
  /** Jitter source in [0, 1) (default Math.random). */
  random?: () => number;
}

interface RunWorkflowInput {
  runId: string;
  workflow: WorkflowGraph & WorkflowSettings;
  registry: NodeTypeRegistry;
  request?: RunRequest;
  providers: LlmProviders;
  retriever?: Retriever | null;
  /** Called synchronously in seq order; a returned promise is awaited before the run goes on. */
  onEvent: RunEventHandler;
  signal?: AbortSignal;
  options?: RunOptions;
}

const DEFAULT_CONCURRENCY = 16;

/**
 * Runs a workflow to its end and resolves with the outcome (COMPLETED, FAILED or CANCELLED); node
 * failures and cancellation resolve, they do not reject. It rejects only before RUN_STARTED, when the
 * graph cannot be scheduled (unknown type, dangling edge, cycle) or the request or options are invalid,
 * or when `onEvent` fails (RUN_EVENT_HANDLER_FAILED). Check the connection rules before calling.
 */
export async function runSeedWorkflow(input: RunWorkflowInput): Promise<RunOutcome> {
  const options = input.options ?? {};
  const request = input.request ?? {};
  const plan = planDataflow(input.workflow, input.registry);
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  if (!(concurrency >= 1) || (Number.isFinite(concurrency) && !Number.isInteger(concurrency))) {
    throw new WeftError("INVALID_CONCURRENCY", `concurrency must be a whole number ≥ 1 or Infinity, not ${concurrency}`);
  }
  const retry = { ...DEFAULT_RETRY_OPTIONS, ...options.retry };
  if (!Number.isInteger(retry.attempts) || retry.attempts < 1 || retry.baseDelayMs < 0 || retry.maxDelayMs < 0) {
    throw new WeftError("INVALID_RETRY_OPTIONS", "retry.attempts must be a whole number ≥ 1 and delays must be ≥ 0");
  }
  const topK = { ...DEFAULT_TOP_K, ...options.topK };
  if (Object.values(topK).some((k) => !Number.isInteger(k) || k < 1)) {
    throw new WeftError("INVALID_TOP_K", "top_k for every intensity must be a whole number ≥ 1");
  }
  const settings = resolveRunSettings(input.workflow, request, {
    topK,
    parseRepair: options.parseRepair ?? true,
    streamTokens: options.streamTokens ?? false,
  });
  return new WorkflowRunner({
    runId: input.runId,
    plan,
    settings,
    suppliedInputs: checkSuppliedInputs(plan, request.inputs ?? {}),
    llm: input.providers,
    retriever: input.retriever ?? null,
    signal: input.signal,
    concurrency,
    limiter: options.limiter ?? null,
    retry,
    sleep: options.sleep ?? abortableSleep,
    random: options.random ?? Math.random,
    now: options.clock ?? Date.now,
    onEvent: input.onEvent,
  }).run();
}

/** Supplied contents must name nodes that take no pre-node (input nodes); anything else is refused. */
function checkSuppliedInputs(plan: DataflowPlan, inputs: Record<string, string>): Map<string, string> {
  const supplied = new Map<string, string>();
  for (const [nodeId, content] of Object.entries(inputs)) {
    const index = plan.indexById.get(nodeId);
    if (index === undefined || plan.specs[index]!.inDegree.max !== 0) {
      const why = index === undefined ? "there is no such node" : "it is not an input node";
      throw new WeftError("RUN_INPUT_INVALID", `content was supplied for node "${nodeId}", but ${why}`, {
        details: { nodeIds: [nodeId] },
      });
    }
    if (typeof content !== "string") {
      throw new WeftError("RUN_INPUT_INVALID", `content supplied for node "${nodeId}" must be text`, {
        details: { nodeIds: [nodeId] },
      });
    }
    supplied.set(nodeId, content);
  }
  return supplied;
}
