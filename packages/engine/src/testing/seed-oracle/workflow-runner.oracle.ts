/**
 * TEST-ONLY ORACLE, not exported: the seed-000 runner as it stood before the SPEC-V2 code paths replaced
 * it, kept verbatim apart from its imports so the v1 freeze property test (v1-freeze.test.ts) can check
 * that every v1 document yields the same violations and the same run events through the new paths.
 * Do not change its behaviour.
 */
import type { EventError, RunEventDraft } from "../../events/run-event.js";
import { isAbortError, WeftError } from "../../model/errors.js";
import { addUsage, emptyUsage, type LlmProviders, type TokenUsage } from "../../providers/llm-provider.js";
import type { Retriever } from "../../providers/retrieval.js";
import type { NodeExecutionContext, NodeExecutionResult } from "../../registry/node-type-definition.js";
import type { Sleep } from "../../model/abortable-sleep.js";
import type { ConcurrencyLimiter } from "../../execute/concurrency-limiter.js";
import type { DataflowPlan } from "../../execute/dataflow-plan.js";
import { emptyNodeDetails, NodeFailure } from "../../registry/node-failure.js";
import { withRetries, type RetryOptions } from "../../execute/retry-policy.js";
import { RunEventSink, type RunEventHandler } from "../../execute/run-event-sink.js";
import { DEFAULT_RUN_LIMITS } from "../../limits/run-limits.js";
import { UNMETERED_COST } from "../../providers/model-cost.js";
import { nodeExecutionSettings, type RunSettings } from "../../execute/run-settings.js";

export type RunStatus = "COMPLETED" | "FAILED" | "CANCELLED";

export interface RunOutcome {
  status: RunStatus;
  /** Output of every node that completed, by node id, in node order. */
  outputs: Record<string, string>;
  /** The result node's output (the output node), or null when it did not complete. */
  result: string | null;
  usage: TokenUsage;
  failedNodeIds: string[];
  error: EventError | null;
}

export interface RunnerDeps {
  runId: string;
  plan: DataflowPlan;
  settings: RunSettings;
  suppliedInputs: ReadonlyMap<string, string>;
  llm: LlmProviders;
  retriever: Retriever | null;
  signal: AbortSignal | undefined;
  concurrency: number;
  limiter: ConcurrencyLimiter | null;
  retry: RetryOptions;
  sleep: Sleep;
  random: () => number;
  now: () => number;
  onEvent: RunEventHandler;
}

const PENDING = 0;
const WAITING = 1;
const RUNNING = 2;
const DONE = 3;
const FAILED = 4;
const SKIPPED = 5;

/**
 * Runs a planned graph by dataflow: a node starts the moment its last pre-node completes (no rounds),
 * within the run's concurrency cap and the optional shared limiter. Handles failure propagation,
 * cancellation and event ordering; what a node does is its type's executor, read from the plan.
 */
export class WorkflowRunner {
  readonly #deps: RunnerDeps;
  readonly #plan: DataflowPlan;
  readonly #status: Uint8Array;
  readonly #holdsSlot: Uint8Array;
  readonly #remaining: Int32Array;
  readonly #outputs: Array<string | undefined>;
  readonly #startedAt: Array<string | undefined>;
  readonly #queue: number[] = [];
  readonly #failed: number[] = [];
  readonly #controller = new AbortController();
  readonly #sink: RunEventSink;
  #head = 0;
  #active = 0;
  #finished = false;
  #pumpScheduled = false;
  #cancelReason: string | null = null;
  #fatal: { error: unknown } | null = null;
  #usage: TokenUsage = emptyUsage();
  #settle: { resolve: (outcome: RunOutcome) => void; reject: (error: unknown) => void } | null = null;

  constructor(deps: RunnerDeps) {
    this.#deps = deps;
    this.#plan = deps.plan;
    const count = deps.plan.nodes.length;
    this.#status = new Uint8Array(count);
    this.#holdsSlot = new Uint8Array(count);
    this.#remaining = Int32Array.from(deps.plan.preds, (preds) => preds.length);
    this.#outputs = new Array<string | undefined>(count);
    this.#startedAt = new Array<string | undefined>(count);
    this.#sink = new RunEventSink(deps.runId, deps.onEvent, deps.now, (error) => this.#onSinkFailure(error));
  }

  /** The seed runner's events have no `invocation`: they go to the sink as they are. */
  #emit(event: unknown): void {
    this.#sink.emit(event as RunEventDraft);
  }

  run(): Promise<RunOutcome> {
    const done = new Promise<RunOutcome>((resolve, reject) => (this.#settle = { resolve, reject }));
    this.#emit({ type: "RUN_STARTED", nodeIds: this.#plan.nodes.map((node) => node.id) });
    const outer = this.#deps.signal;
    if (outer?.aborted) this.#cancel();
    else outer?.addEventListener("abort", this.#onAbort, { once: true });
    for (const index of this.#plan.sources) this.#queue.push(index);
    this.#afterEvents();
    return done;
  }

  readonly #onAbort = (): void => this.#cancel();

  #pump(): void {
    this.#pumpScheduled = false;
    while (!this.#finished && this.#head < this.#queue.length && this.#active < this.#deps.concurrency) {
      this.#launch(this.#queue[this.#head++]!);
    }
    if (!this.#finished && this.#active === 0 && this.#head >= this.#queue.length) this.#finish();
  }

  /** Schedules more work once the event handler has caught up (back-pressure from persistence). */
  #afterEvents(): void {
    if (!this.#sink.busy) {
      this.#pump();
    } else if (!this.#pumpScheduled) {
      this.#pumpScheduled = true;
      void this.#sink.flush().then(() => this.#pump());
    }
  }

  #launch(index: number): void {
    this.#active += 1;
    const limiter = this.#deps.limiter;
    if (!limiter) return this.#start(index);
    if (limiter.tryAcquire()) {
      this.#holdsSlot[index] = 1;
      return this.#start(index);
    }
    this.#status[index] = WAITING;
    limiter.acquire(this.#controller.signal).then(
      () => {
        this.#holdsSlot[index] = 1;
        if (this.#status[index] === WAITING && !this.#finished) this.#start(index);
        else this.#releaseSlot(index);
      },
      () => undefined, // aborted while waiting: the cancellation has already skipped this node
    );
  }

  #start(index: number): void {
    const node = this.#plan.nodes[index]!;
    this.#status[index] = RUNNING;
    this.#startedAt[index] = this.#iso();
    this.#emit({ type: "NODE_STARTED", nodeId: node.id, nodeType: node.type });
    if (this.#finished) return;
    const inputs = this.#inputsOf(index);
    let execution: Promise<NodeExecutionResult>;
    try {
      execution = this.#plan.specs[index]!.execute(this.#context(index, inputs));
    } catch (error) {
      execution = Promise.reject(error);
    }
    execution.then(
      (result) => this.#complete(index, result),
      (error: unknown) => this.#fail(index, error, inputs),
    );
  }

  #context(index: number, inputs: string[]): NodeExecutionContext {
    const deps = this.#deps;
    const node = this.#plan.nodes[index]!;
    const signal = this.#controller.signal;
    const emit: NodeExecutionContext["emit"] = (event) => {
      if (this.#status[index] === RUNNING && !this.#finished) this.#emit(event);
    };
    // The seed executors read only the fields below (and `values`, which are these same texts).
    return {
      node,
      inputs,
      values: inputs,
      suppliedContent: deps.suppliedInputs.get(node.id),
      settings: nodeExecutionSettings(deps.settings, node),
      limits: DEFAULT_RUN_LIMITS,
      llm: deps.llm,
      retriever: deps.retriever,
      cost: UNMETERED_COST,
      signal,
      emit,
      withRetries: <T>(call: (attempt: number) => Promise<T>) =>
        withRetries(call, {
          options: deps.retry,
          sleep: deps.sleep,
          random: deps.random,
          signal,
          onRetry: ({ attempt, delayMs, error }) =>
            emit({
              type: "WARNING",
              nodeId: node.id,
              code: "PROVIDER_RETRY",
              message: `${error.code}: ${error.message}; retrying in ${delayMs} ms (attempt ${attempt + 1} of ${deps.retry.attempts})`,
            }),
        }),
    } as unknown as NodeExecutionContext;
  }

  #complete(index: number, result: NodeExecutionResult): void {
    this.#releaseSlot(index);
    if (this.#status[index] !== RUNNING || this.#finished) return;
    this.#status[index] = DONE;
    this.#active -= 1;
    this.#outputs[index] = result.output as string;
    this.#usage = addUsage(this.#usage, result.details.usage);
    const nodeId = this.#plan.nodes[index]!.id;
    const details = { ...result.details, startedAt: this.#startedAt[index]!, finishedAt: this.#iso() };
    this.#emit({ type: "NODE_COMPLETED", nodeId, description: result.description, output: result.output as string, details });
    for (const next of this.#plan.succs[index]!) {
      this.#remaining[next]! -= 1;
      if (this.#remaining[next] === 0 && this.#status[next] === PENDING) this.#queue.push(next);
    }
    this.#afterEvents();
  }

  #fail(index: number, error: unknown, inputs: string[]): void {
    this.#releaseSlot(index);
    if (this.#status[index] !== RUNNING || this.#finished) return;
    this.#status[index] = FAILED;
    this.#active -= 1;
    this.#failed.push(index);
    const partial = error instanceof NodeFailure ? error.partial : emptyNodeDetails(inputs);
    this.#usage = addUsage(this.#usage, partial.usage);
    const nodeId = this.#plan.nodes[index]!.id;
    const details = { ...partial, startedAt: this.#startedAt[index]!, finishedAt: this.#iso() };
    this.#emit({ type: "NODE_FAILED", nodeId, error: toEventError(error), details });
    this.#skipDownstream(index);
    this.#afterEvents();
  }

  /** Breadth-first over successors; each node is skipped once, so this stays O(V + E) per run. */
  #skipDownstream(failed: number): void {
    const blockedBy = this.#plan.nodes[failed]!.id;
    const frontier = [failed];
    for (let head = 0; head < frontier.length; head += 1) {
      for (const next of this.#plan.succs[frontier[head]!]!) {
        if (this.#status[next] !== PENDING) continue;
        this.#status[next] = SKIPPED;
        this.#emit({ type: "NODE_SKIPPED", nodeId: this.#plan.nodes[next]!.id, reason: "UPSTREAM_FAILED", blockedBy });
        frontier.push(next);
      }
    }
  }

  /** In-flight nodes fail with RUN_CANCELLED (their provider calls see the abort); the rest are skipped. */
  #cancel(): void {
    if (this.#finished) return;
    this.#cancelReason = abortReason(this.#deps.signal);
    this.#controller.abort(this.#deps.signal?.reason);
    this.#plan.nodes.forEach((node, index) => {
      const status = this.#status[index];
      if (status === RUNNING) {
        this.#status[index] = FAILED;
        const details = { ...emptyNodeDetails(this.#inputsOf(index)), startedAt: this.#startedAt[index]!, finishedAt: this.#iso() };
        const error = { code: "RUN_CANCELLED", message: "the run was cancelled while this node was running" };
        this.#emit({ type: "NODE_FAILED", nodeId: node.id, error, details });
      } else if (status === PENDING || status === WAITING) {
        this.#status[index] = SKIPPED;
        this.#emit({ type: "NODE_SKIPPED", nodeId: node.id, reason: "RUN_CANCELLED", blockedBy: null });
      }
    });
    this.#finish();
  }

  #finish(): void {
    this.#finished = true;
    this.#deps.signal?.removeEventListener("abort", this.#onAbort);
    if (this.#fatal) return this.#rejectFatal();
    const outcome = this.#outcome();
    const { outputs, usage } = outcome;
    if (outcome.status === "CANCELLED") {
      this.#emit({ type: "RUN_CANCELLED", reason: this.#cancelReason ?? "cancelled", outputs, usage });
    } else if (outcome.status === "FAILED") {
      this.#emit({ type: "RUN_FAILED", error: outcome.error!, failedNodeIds: outcome.failedNodeIds, outputs, usage });
    } else {
      this.#emit({ type: "RUN_COMPLETED", result: outcome.result, outputs, usage });
    }
    this.#sink.close();
    void this.#sink.flush().then(() => (this.#fatal ? this.#rejectFatal() : this.#settle?.resolve(outcome)));
  }

  #outcome(): RunOutcome {
    const outputs: Record<string, string> = {};
    this.#plan.nodes.forEach((node, index) => {
      if (this.#status[index] === DONE) outputs[node.id] = this.#outputs[index]!;
    });
    const resultIndex = this.#plan.resultNode;
    const result = resultIndex >= 0 && this.#status[resultIndex] === DONE ? this.#outputs[resultIndex]! : null;
    const failedNodeIds = this.#failed.map((index) => this.#plan.nodes[index]!.id);
    const base = { outputs, result, usage: this.#usage, failedNodeIds };
    if (this.#cancelReason !== null) {
      return { ...base, status: "CANCELLED", error: { code: "RUN_CANCELLED", message: this.#cancelReason } };
    }
    if (failedNodeIds.length > 0) return { ...base, status: "FAILED", error: this.#runError(failedNodeIds) };
    return { ...base, status: "COMPLETED", error: null };
  }

  #runError(failedNodeIds: string[]): EventError {
    const first = failedNodeIds[0]!;
    const more = failedNodeIds.length > 1 ? ` and ${failedNodeIds.length - 1} more node(s)` : "";
    return { code: "NODE_FAILED", message: `node "${first}"${more} failed` };
  }

  #onSinkFailure(error: unknown): void {
    this.#fatal ??= { error };
    if (this.#finished) return;
    this.#controller.abort();
    this.#finish();
  }

  #rejectFatal(): void {
    this.#sink.close();
    this.#controller.abort();
    const cause = this.#fatal?.error;
    const reason = cause instanceof Error ? cause.message : String(cause);
    this.#settle?.reject(
      new WeftError("RUN_EVENT_HANDLER_FAILED", `the run stopped because its event handler failed: ${reason}`, {
        audience: "operational",
        cause,
      }),
    );
    this.#settle = null;
  }

  #releaseSlot(index: number): void {
    if (this.#holdsSlot[index] === 0) return;
    this.#holdsSlot[index] = 0;
    this.#deps.limiter?.release();
  }

  #inputsOf(index: number): string[] {
    return this.#plan.preds[index]!.map((pred) => this.#outputs[pred]!);
  }

  #iso(): string {
    return new Date(this.#deps.now()).toISOString();
  }
}

function toEventError(error: unknown): EventError {
  if (error instanceof WeftError) return { code: error.code, message: error.message };
  if (error instanceof Error && error.name === "TimeoutError") {
    return { code: "PROVIDER_TIMEOUT", message: error.message || "a call made by the node timed out" };
  }
  if (isAbortError(error)) return { code: "NODE_ABORTED", message: "the node's work was aborted" };
  return { code: "INTERNAL_ERROR", message: error instanceof Error ? error.message : String(error) };
}

function abortReason(signal: AbortSignal | undefined): string {
  const reason: unknown = signal?.reason;
  if (typeof reason === "string") return reason;
  if (reason instanceof Error && reason.name !== "AbortError") return reason.message;
  return "the run was cancelled";
}
