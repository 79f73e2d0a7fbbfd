import { DEFAULT_RUN_LIMITS } from "../limits/run-limits.js";
import { WeftError } from "../model/errors.js";
import type { LlmProviders } from "../providers/llm-provider.js";
import type { CallerCost } from "../providers/model-cost.js";
import type { Retriever } from "../providers/retrieval.js";
import type { ToolProviders } from "../providers/tool-providers.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import { abortableSleep, type Sleep } from "../model/abortable-sleep.js";
import type { Slots } from "./concurrency-limiter.js";
import { planGraph } from "./graph-plan.js";
import type { PreparedRun } from "./prepare-run.js";
import { DEFAULT_RETRY_OPTIONS, type RetryOptions } from "./retry-policy.js";
import type { RunEventHandler } from "./run-event-sink.js";
import type { RunResume } from "./run-resume.js";
import { HumanTaskAnswers } from "./human-task-answers.js";
import { WorkflowRunner, type RunOutcome } from "./workflow-runner.js";

/** How this process executes a run; none of it changes what the run computes. */
export interface ExecutionOptions {
  /**
   * Shared by several runs to cap the whole process; applied on top of the run's own concurrency: a
   * ConcurrencyLimiter, or its exclusive() view for a run whose every node must execute alone.
   */
  limiter?: Slots;
  /**
   * The handled events (onEvent's promises settled: stored) show exactly what executes: a node does no
   * work before its NODE_STARTED is handled, and gives its limiter slot back only once its end is, so a
   * process that dies leaves a true record of the nodes it was executing and no other run's node can
   * begin in between. Default false: events are stored with those around them, after the work began.
   */
  recordInFlight?: boolean;
  retry?: Partial<RetryOptions>;
  /** Milliseconds since the epoch, for event times (default Date.now). */
  clock?: () => number;
  /** Backoff waits (default: an abortable setTimeout). */
  sleep?: Sleep;
  /** Jitter source in [0, 1) (default Math.random). */
  random?: () => number;
  /** Emit STATE_UPDATED after each state write (default false). */
  stateEvents?: boolean;
  /** The id of the task a `human` node's invocation opens; the same invocation must get the same id on every attempt. */
  taskId?: (nodeId: string, invocation: string) => string;
}

export interface RunWorkflowInput {
  runId: string;
  /** From prepareRun (or read back from storage with parsePreparedRun): executed as it is. */
  prepared: PreparedRun;
  registry: NodeTypeRegistry;
  providers: LlmProviders;
  retriever?: Retriever | null;
  /** Knowledge-base search, web search and the semantic cache, for the tool node types (SPEC-V2 §6). */
  tools?: ToolProviders;
  /** Called synchronously in seq order; a returned promise is awaited before the run goes on. */
  onEvent: RunEventHandler;
  signal?: AbortSignal;
  options?: ExecutionOptions;
  /** Continue a run an earlier attempt had started (its worker stopped): see run-resume.ts. */
  resume?: RunResume | null;
  /**
   * Answers to the run's tasks for people: those closed while the run waited, and (through `give`)
   * those closed while it executes. Without it, a run that reaches a `human` node ends WAITING.
   */
  humanAnswers?: HumanTaskAnswers;
  /**
   * A workflow tool's run (WorkflowTools.call): its caller's budget (`WorkflowToolCall.cost`). Every
   * priced call of this run must fit this run's `limits.maxCostUsd` and the caller's, and counts in both.
   */
  callerCost?: CallerCost | null;
}

/**
 * Executes a prepared run to its end and resolves with the outcome (COMPLETED, FAILED or CANCELLED);
 * node failures and cancellation resolve, they do not reject. It rejects only before RUN_STARTED, when
 * the registry cannot schedule the graph (a type it lacks, a dangling edge, a cycle) or the retry
 * options are invalid, or when `onEvent` fails (RUN_EVENT_HANDLER_FAILED).
 */
export async function runWorkflow(input: RunWorkflowInput): Promise<RunOutcome> {
  const { prepared } = input;
  const options = input.options ?? {};
  const plan = planGraph(prepared.workflow, input.registry);
  const retry = { ...DEFAULT_RETRY_OPTIONS, ...options.retry };
  if (!Number.isInteger(retry.attempts) || retry.attempts < 1 || retry.baseDelayMs < 0 || retry.maxDelayMs < 0) {
    throw new WeftError("INVALID_RETRY_OPTIONS", "retry.attempts must be a whole number ≥ 1 and delays must be ≥ 0", {
      audience: "internal",
    });
  }
  return new WorkflowRunner({
    runId: input.runId,
    plan,
    settings: prepared.settings,
    suppliedInputs: new Map(Object.entries(prepared.inputs)),
    llm: input.providers,
    retriever: input.retriever ?? null,
    tools: input.tools ?? {},
    signal: input.signal,
    concurrency: prepared.concurrency ?? Infinity,
    limiter: options.limiter ?? null,
    retry,
    sleep: options.sleep ?? abortableSleep,
    random: options.random ?? Math.random,
    now: options.clock ?? Date.now,
    onEvent: input.onEvent,
    state: { channels: prepared.workflow.state ?? {}, initial: prepared.state },
    maxInvocations: prepared.maxInvocations,
    maxCostUsd: prepared.workflow.limits?.maxCostUsd ?? null,
    stateEvents: options.stateEvents ?? false,
    recordInFlight: options.recordInFlight ?? false,
    resume: input.resume ?? null,
    limits: prepared.limits ?? DEFAULT_RUN_LIMITS,
    humanAnswers: input.humanAnswers ?? new HumanTaskAnswers(),
    taskId: options.taskId ?? null,
    callerCost: input.callerCost ?? null,
  }).run();
}
