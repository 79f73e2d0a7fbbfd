import type { EventError, NodeRunDetails, RunEventDraft } from "../events/run-event.js";
import { WeftError } from "../model/errors.js";
import { jsonText, type JsonValue } from "../model/json-value.js";
import type { StateChannel, WorkflowNode } from "../model/workflow.js";
import { addUsage, emptyUsage, type LlmProviders, type TokenUsage } from "../providers/llm-provider.js";
import type { Retriever } from "../providers/retrieval.js";
import type { ToolProviders } from "../providers/tool-providers.js";
import type { BodyRunRequest, BodyRunResult, ChildInvocationOutcome, ChildInvocationRequest, ExecutionSettings, RecordedEvent } from "../registry/node-type-definition.js";
import type { Sleep } from "../model/abortable-sleep.js";
import type { Slots } from "./concurrency-limiter.js";
import type { GraphPlan } from "./graph-plan.js";
import { isoClock } from "./iso-clock.js";
import { loopInvocation } from "./loop-control.js";
import type { RetryOptions } from "./retry-policy.js";
import { RunEventSink, type RunEventHandler } from "./run-event-sink.js";
import type { RunLimits } from "../limits/run-limits.js";
import { RunBytes } from "../limits/value-gate.js";
import { overBudget } from "./over-budget.js";
import { RunCostMeter } from "./run-cost-meter.js";
import type { CallerCost } from "../providers/model-cost.js";
import { nextTurn, sliceSpent } from "./turn-clock.js";
import { alreadyEmitted, invocationKey, recordedCost, type FinishedInvocation, type RunResume } from "./run-resume.js";
import { ChildInvocations, type ChildInvocationHost } from "./child-invocations.js";
import type { HumanTaskAnswer, HumanTaskRequest } from "../model/human-task.js";
import type { HumanTaskAnswers } from "./human-task-answers.js";
import { HumanWaits } from "./human-waits.js";
import { nodeExecutionSettings, type RunSettings } from "./run-settings.js";
import { DONE, RUNNING, WAITING } from "./scope-state.js";
import { ScopeRun, type ScopeHost, type ScopeOptions } from "./scope-run.js";
import type { ScopeView } from "./scope-view.js";
import { StateStore, type OrderKey } from "./state-store.js";

/** WAITING: the execution ended because only tasks for people were left open (the run goes on later). */
export type RunStatus = "COMPLETED" | "FAILED" | "CANCELLED" | "WAITING";

export interface RunOutcome {
  status: RunStatus;
  /** Output (as text) of every top-level node that completed, by node id, in node order; a loop's nodes: their last iteration's. */
  outputs: Record<string, string>;
  /** The result node's output (the output node), or null when it did not complete. */
  result: string | null;
  usage: TokenUsage;
  /** What the run's priced model calls cost (US dollars); null when none had a price. */
  costUsd: number | null;
  failedNodeIds: string[];
  error: EventError | null;
  /** Final values of the state channels, when the workflow declares any (thread-scoped ones are the caller's to store). */
  state?: Record<string, JsonValue>;
  /** WAITING: the open tasks the run waits for. */
  waitingFor?: string[];
}

export interface RunnerDeps {
  runId: string;
  plan: GraphPlan;
  settings: RunSettings;
  suppliedInputs: ReadonlyMap<string, string>;
  llm: LlmProviders;
  retriever: Retriever | null;
  /** Knowledge-base search, web search and the semantic cache for the tool node types. */
  tools: ToolProviders;
  signal: AbortSignal | undefined;
  concurrency: number;
  limiter: Slots | null;
  retry: RetryOptions;
  sleep: Sleep;
  random: () => number;
  now: () => number;
  onEvent: RunEventHandler;
  /** State channels and their starting values (thread-scoped ones come from the caller). */
  state: { channels: Readonly<Record<string, StateChannel>>; initial: Readonly<Record<string, JsonValue>> };
  /** Node invocations this run may start (SPEC-V2 §4), counted while it runs. */
  maxInvocations: number;
  /** US dollars the run may spend on priced model calls (`limits.maxCostUsd`); null: no limit. */
  maxCostUsd?: number | null;
  /** Emit STATE_UPDATED after each write. */
  stateEvents: boolean;
  /** Handled events show what executes: starts handled before the work, slots given back after the end is (ExecutionOptions.recordInFlight). */
  recordInFlight: boolean;
  /** Set when an earlier attempt of the run had started it (run-resume.ts). */
  resume?: RunResume | null;
  /** A workflow tool's run: its caller's budget, which every priced call of this run also reserves from. */
  callerCost?: CallerCost | null;
  /** What every value of the run must stay within (SPEC-V3 §1). */
  limits: RunLimits;
  /** Answers to the run's tasks, given before or while it executes. */
  humanAnswers: HumanTaskAnswers;
  /** The id of the task a `human` node's invocation opens (default: from the run id, node id and invocation). */
  taskId: ((nodeId: string, invocation: string) => string) | null;
}

type Task = { scope: ScopeRun; node: number };

/**
 * Runs a planned graph by dataflow: a node starts the moment its inputs are settled (no rounds), within
 * the run's concurrency cap and the optional shared limiter; map items and subgraphs run as child
 * scopes of the same run, sharing its cap, its budget, its state and its one event sink (seq stays
 * gapless). Handles failure, cancellation, the budget and event ordering; what a node does is its
 * type's executor, read from the plan. Composite nodes (map, subgraph) take no slot while their
 * bodies work, so nested graphs can never deadlock on the cap.
 */
export class WorkflowRunner implements ScopeHost, ChildInvocationHost {
  readonly #deps: RunnerDeps;
  readonly #queue: Task[] = [];
  readonly #failed: string[] = [];
  readonly #controller = new AbortController();
  readonly #sink: RunEventSink;
  readonly #invocations = new Map<string, number>();
  readonly #store: StateStore;
  readonly #top: ScopeRun;
  #head = 0;
  #active = 0;
  #started = 0;
  #finished = false;
  #pumpScheduled = false;
  #yielding = false;
  /** Tasks for people: their invocations hold no slot and do not count as active while they wait. */
  readonly #waits: HumanWaits;
  /** Agents' tool calls (child-invocations.ts). */
  readonly #children: ChildInvocations;
  /** Invocations that gave their slot back while their children work: the execution is not idle. */
  #parkedForChildren = 0;
  #cancelReason: string | null = null;
  #budgetError: EventError | null = null;
  #fatal: { error: unknown } | null = null;
  #usage: TokenUsage = emptyUsage();
  #settle: { resolve: (outcome: RunOutcome) => void; reject: (error: unknown) => void } | null = null;
  readonly runInputs: Readonly<Record<string, JsonValue>>;
  readonly #iso: () => string;
  readonly #nodeSettings = new WeakMap<WorkflowNode, ExecutionSettings>();
  readonly #bytes: RunBytes;
  readonly #cost: RunCostMeter;
  #tooLarge: EventError | null = null;

  constructor(deps: RunnerDeps) {
    this.#deps = deps;
    this.#iso = isoClock(deps.now);
    this.#sink = new RunEventSink(deps.runId, deps.onEvent, deps.now, (error) => this.#onSinkFailure(error), deps.resume?.lastSeq ?? 0);
    this.#store = new StateStore(deps.state.channels, deps.state.initial);
    this.#bytes = new RunBytes(deps.limits.maxRunBytes);
    // A refused call stops the run after the step that asked (the node is in the middle of its execution).
    const stopForCost = (error: EventError, nodeId: string) => queueMicrotask(() => this.#stop(error, "UPSTREAM_FAILED", nodeId));
    this.#cost = new RunCostMeter(deps.maxCostUsd ?? null, stopForCost, deps.resume ? recordedCost(deps.resume.record) : null, deps.callerCost ?? null);
    this.runInputs = runInputsOf(deps.plan, deps.suppliedInputs);
    this.#top = new ScopeRun(this, deps.plan, topScopeOptions(() => this.#finish()));
    this.#waits = new HumanWaits(this, deps.humanAnswers, deps.resume?.record ?? null, deps.taskId);
    this.#children = new ChildInvocations(this);
  }

  get runId(): string {
    return this.#deps.runId;
  }
  get finished(): boolean {
    return this.#finished;
  }
  executionSettings(node: WorkflowNode): ExecutionSettings {
    let settings = this.#nodeSettings.get(node);
    if (!settings) {
      settings = nodeExecutionSettings(this.#deps.settings, node);
      this.#nodeSettings.set(node, settings);
    }
    return settings;
  }
  get llm(): LlmProviders {
    return this.#deps.llm;
  }
  get retriever(): Retriever | null {
    return this.#deps.retriever;
  }
  get tools(): ToolProviders {
    return this.#deps.tools;
  }
  get signal(): AbortSignal {
    return this.#controller.signal;
  }
  get cost(): RunCostMeter {
    return this.#cost;
  }
  get limits(): RunLimits {
    return this.#deps.limits;
  }
  get recordInFlight(): boolean {
    return this.#deps.recordInFlight;
  }
  /** Settles once every event emitted so far has been handled. */
  eventsHandled(): Promise<void> {
    return this.#sink.flush();
  }
  get retry(): RetryOptions {
    return this.#deps.retry;
  }
  get sleep(): Sleep {
    return this.#deps.sleep;
  }
  get random(): () => number {
    return this.#deps.random;
  }
  get suppliedInputs(): ReadonlyMap<string, string> {
    return this.#deps.suppliedInputs;
  }

  run(): Promise<RunOutcome> {
    const done = new Promise<RunOutcome>((resolve, reject) => (this.#settle = { resolve, reject }));
    const resume = this.#deps.resume;
    if (resume) this.#sink.emit({ type: "RUN_RESUMED", attempt: resume.attempt });
    else this.#sink.emit({ type: "RUN_STARTED", nodeIds: this.#deps.plan.nodes.map((node) => node.id) });
    const outer = this.#deps.signal;
    if (outer?.aborted) this.#cancel();
    else outer?.addEventListener("abort", this.#onAbort, { once: true });
    if (!this.#finished) this.#top.begin();
    this.afterEvents();
    return done;
  }

  readonly #onAbort = (): void => this.#cancel();

  emit(event: RunEventDraft, charged = false): void {
    const resume = this.#deps.resume;
    if (resume && alreadyEmitted(resume.record, event)) return;
    if (!charged && !this.#bytes.charge(event)) {
      // Over WEFT_MAX_RUN_BYTES: what goes out is the event's skeleton (no values, no details), and the run stops.
      const skeleton = overBudget(event);
      if (!skeleton) return;
      this.#bytes.charge(skeleton);
      event = skeleton;
      this.#scheduleTooLarge(null);
    }
    this.#sink.emit(event);
  }

  admitEvent(event: RunEventDraft): boolean {
    return this.#bytes.charge(event);
  }

  stopTooLarge(nodeId: string): void {
    const error = this.#tooLargeError();
    this.#stop(error, "UPSTREAM_FAILED", nodeId);
  }

  #tooLargeError(): EventError {
    this.#tooLarge ??= toEventErrorOf(this.#bytes.tooLarge());
    return this.#tooLarge;
  }

  /** Stops the run after the current step (an event is being emitted from the middle of one). */
  #scheduleTooLarge(nodeId: string | null): void {
    if (this.#tooLarge) return;
    const error = this.#tooLargeError();
    queueMicrotask(() => this.#stop(error, "UPSTREAM_FAILED", nodeId));
  }

  /**
   * An earlier attempt's result for this invocation, to replay instead of executing it. A router whose
   * branch decision was not stored (the worker stopped in between) executes again.
   */
  finishedEarlier(scope: ScopeRun, node: number, invocation: string): FinishedInvocation | null {
    const entry = this.#deps.resume?.record.finished.get(invocationKey(scope.plan.nodes[node]!.id, invocation));
    if (!entry) return null;
    if (entry.status === "COMPLETED" && scope.plan.specs[node]!.router && entry.result.ports === undefined) return null;
    return entry;
  }

  iso(): string {
    return this.#iso();
  }

  now(): number {
    return this.#deps.now();
  }

  /** A resumed run: an invocation waiting for its task, or a composite one, goes on where it was (see ScopeHost). */
  continuedFrom(scope: ScopeRun, node: number, invocation: string): string | null {
    const record = this.#deps.resume?.record;
    if (!record) return null;
    const key = invocationKey(scope.plan.nodes[node]!.id, invocation);
    const waiting = record.waiting?.get(key);
    if (waiting) return waiting.startedAt ?? this.#iso();
    return scope.plan.specs[node]!.body ? (record.started?.get(key) ?? null) : null;
  }

  /** A `human` node's task (human-waits.ts): while it is open the invocation holds no slot. */
  openTask(scope: ScopeView, node: number, invocation: string, request: HumanTaskRequest): Promise<HumanTaskAnswer> {
    const park = () => {
      this.releaseSlot(scope, node);
      this.#active -= 1;
      this.afterEvents();
    };
    return this.#waits.wait({ nodeId: scope.plan.nodes[node]!.id, invocation, park, unpark: () => (this.#active += 1) }, request);
  }

  idle(): boolean {
    return this.#active === 0 && this.#parkedForChildren === 0 && this.#head === this.#queue.length;
  }

  /** An invocation's own invocations (an agent's tool calls): it holds no slot while they work. */
  runInvocations(scope: ScopeView, node: number, invocation: string, requests: readonly ChildInvocationRequest[]): Promise<ChildInvocationOutcome[]> {
    const park = () => {
      this.releaseSlot(scope, node);
      this.#active -= 1;
      this.#parkedForChildren += 1;
      this.afterEvents();
    };
    const unpark = async () => {
      this.#parkedForChildren -= 1;
      this.#active += 1;
      const limiter = this.#deps.limiter;
      if (!limiter || this.#finished) return;
      try {
        await limiter.acquire(this.#controller.signal);
      } catch {
        return; // the run ended while the invocation waited for a slot
      }
      if (this.#finished || scope.state.status[node] !== RUNNING) limiter.release();
      else scope.state.holdsSlot[node] = 1;
    };
    return this.#children.run({ nodeId: scope.plan.nodes[node]!.id, invocation, park, unpark }, requests);
  }

  /** A resumed run: the journal events (an agent's steps) an earlier attempt recorded for this invocation. */
  recorded(nodeId: string, invocation: string, type: string): readonly RecordedEvent[] {
    const journal = this.#deps.resume?.record.journal?.get(invocationKey(nodeId, invocation));
    return journal ? journal.filter((event) => event.type === type) : [];
  }

  finishedInvocation(nodeId: string, invocation: string): FinishedInvocation | null {
    return this.#deps.resume?.record.finished.get(invocationKey(nodeId, invocation)) ?? null;
  }

  /** Counts a child invocation's start against the budget; past it the run stops with RUN_BUDGET_EXCEEDED. */
  admitChild(nodeId: string): boolean {
    this.#started += 1;
    if (this.#started <= this.#deps.maxInvocations) return true;
    const message = `the run would start more than ${this.#deps.maxInvocations} node invocations (at a call of node "${nodeId}")`;
    this.#stop({ code: "RUN_BUDGET_EXCEEDED", message }, "UPSTREAM_FAILED", nodeId);
    return false;
  }

  eventsPending(): Promise<void> | null {
    return this.#sink.busy ? this.#sink.flush() : null;
  }

  pause(taskIds: string[]): void {
    this.#finish(taskIds);
  }

  stateSnapshot(): Readonly<Record<string, JsonValue>> {
    return this.#store.snapshot();
  }

  invocationIndex(nodeId: string): number {
    return (this.#invocations.get(nodeId) ?? 1) - 1;
  }

  enqueue(scope: ScopeRun, node: number): void {
    this.#queue.push({ scope, node });
  }

  /** Schedules more work once the event handler has caught up (back-pressure from persistence). */
  afterEvents(): void {
    if (!this.#sink.busy) {
      this.#pump();
    } else if (!this.#pumpScheduled) {
      this.#pumpScheduled = true;
      void this.#sink.flush().then(() => this.#pump());
    }
  }

  #pump(): void {
    this.#pumpScheduled = false;
    if (this.#head < this.#queue.length && sliceSpent()) return this.#pumpNextTurn();
    while (!this.#finished && this.#head < this.#queue.length && this.#active < this.#deps.concurrency) {
      this.#launch(this.#queue[this.#head++]!);
    }
    if (this.#head === this.#queue.length && this.#head > 1024) {
      this.#queue.length = 0;
      this.#head = 0;
    }
  }

  /** The process's run work has held the thread for a slice: the next steps start after the event loop's turn (turn-clock.ts). */
  #pumpNextTurn(): void {
    if (this.#yielding) return;
    this.#yielding = true;
    void nextTurn().then(() => {
      this.#yielding = false;
      this.afterEvents();
    });
  }

  #launch({ scope, node }: Task): void {
    this.#active += 1;
    const limiter = this.#deps.limiter;
    if (!limiter) return scope.start(node);
    if (limiter.tryAcquire()) {
      scope.state.holdsSlot[node] = 1;
      return scope.start(node);
    }
    scope.state.status[node] = WAITING;
    limiter.acquire(this.#controller.signal).then(
      () => {
        scope.state.holdsSlot[node] = 1;
        if (scope.state.status[node] === WAITING && !this.#finished) scope.start(node);
        else this.releaseSlot(scope, node);
      },
      () => undefined, // aborted while waiting: the cancellation has already skipped this node
    );
  }

  leafEnded(scope: ScopeRun, node: number): void {
    this.releaseSlot(scope, node);
    this.#active -= 1;
    this.#waits.checkIdle();
  }

  releaseSlot(scope: Pick<ScopeView, "state">, node: number): void {
    if (scope.state.holdsSlot[node] === 0) return;
    scope.state.holdsSlot[node] = 0;
    const limiter = this.#deps.limiter;
    if (!limiter) return;
    if (!this.#deps.recordInFlight) return limiter.release();
    // The node's end is emitted in this same step: the slot goes back once that end has been handled.
    void Promise.resolve()
      .then(() => this.#sink.flush())
      .then(() => limiter.release());
  }

  /** Counts the start against the budget; past it the run stops with RUN_BUDGET_EXCEEDED. */
  admit(scope: ScopeRun, node: number): boolean {
    const nodeId = scope.plan.nodes[node]!.id;
    this.#started += 1;
    if (this.#started > this.#deps.maxInvocations) {
      if (!scope.plan.specs[node]!.body) this.leafEnded(scope, node);
      const message = `the run would start more than ${this.#deps.maxInvocations} node invocations (at node "${nodeId}")`;
      this.#stop({ code: "RUN_BUDGET_EXCEEDED", message }, "UPSTREAM_FAILED", nodeId);
      return false;
    }
    this.#invocations.set(nodeId, (this.#invocations.get(nodeId) ?? 0) + 1);
    return true;
  }

  nodeFailed(nodeId: string, _error: EventError, scope: ScopeRun): void {
    if (scope === this.#top) this.#failed.push(nodeId);
  }

  addUsage(details: Pick<NodeRunDetails, "usage">): void {
    this.#usage = addUsage(this.#usage, details.usage);
  }

  writeState(channel: string, key: OrderKey, value: JsonValue, nodeId: string, invocation: string): void {
    this.#store.write(channel, key, value);
    if (this.#deps.stateEvents) this.emit({ type: "STATE_UPDATED", channel, nodeId, invocation });
  }

  /** Runs a body graph as a child scope of the asking node's invocation. */
  runBody(scope: ScopeRun, node: number, request: BodyRunRequest): Promise<BodyRunResult> {
    const plan = scope.plan.bodies[node];
    if (!plan) return Promise.resolve({ ok: false, error: { code: "MAP_BODY_INVALID", message: "the node has no body" } });
    if (this.#finished || scope.state.status[node] !== RUNNING) return Promise.resolve(cancelled());
    const parentPath = loopInvocation(scope, node);
    const loops: Record<string, { iteration: number; max: number }> = { ...scope.options.outerLoops };
    for (const loop of scope.plan.loopChain[node]!) loops[loop.id] = { iteration: scope.state.loops[loop.index]!.iteration, max: loop.max };
    const innermost = scope.plan.loopChain[node]!.at(-1);
    const inner = innermost ? scope.state.loops[innermost.index]! : null;
    return new Promise((resolve) => {
      const child = new ScopeRun(this, plan, {
        prefix: parentPath === "" ? request.segment : `${parentPath}/${request.segment}`,
        keyPrefix: [...scope.orderKey(node), request.index ?? 0],
        entryValue: request.input,
        ...(request.item === undefined ? (scope.options.item === undefined ? {} : { item: scope.options.item }) : { item: request.item }),
        ...(request.index === undefined ? (scope.options.index === undefined ? {} : { index: scope.options.index }) : { index: request.index }),
        outerLoops: loops,
        outerFeedback: inner ? inner.feedback : scope.options.outerFeedback,
        outerIteration: inner ? inner.iteration : scope.options.outerIteration,
        onDone: (done) => resolve(this.#finished ? cancelled() : done.result()),
      });
      const list = scope.children.get(node);
      if (list) list.push(child);
      else scope.children.set(node, [child]);
      child.begin();
      this.afterEvents();
    });
  }

  /** In-flight nodes fail with RUN_CANCELLED (their provider calls see the abort); the rest are skipped. */
  #cancel(): void {
    if (this.#finished) return;
    this.#cancelReason = abortReason(this.#deps.signal);
    this.#controller.abort(this.#deps.signal?.reason);
    this.#children.stopAll({ code: "RUN_CANCELLED", message: "the run was cancelled while this call was running" });
    this.#top.stopAll({ code: "RUN_CANCELLED", message: "the run was cancelled while this node was running" }, "RUN_CANCELLED", null);
    this.#finish();
  }

  #stop(error: EventError, reason: "UPSTREAM_FAILED", blockedBy: string | null): void {
    if (this.#finished) return;
    this.#budgetError = error;
    this.#controller.abort(new WeftError(error.code, error.message));
    this.#children.stopAll(error);
    this.#top.stopAll(error, reason, blockedBy);
    this.#finish();
  }

  /** Ends this execution: the run's end, or with `waitingFor` its pause until a task is closed. */
  #finish(waitingFor: string[] | null = null): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#deps.signal?.removeEventListener("abort", this.#onAbort);
    this.#waits.detach();
    if (this.#fatal) return this.#rejectFatal();
    let outcome = this.#outcome();
    if (waitingFor) outcome = { ...outcome, status: "WAITING", error: null, waitingFor };
    let terminal = this.#terminalEvent(outcome);
    if (!this.#bytes.charge(terminal)) {
      // The outputs and state would take the run past its budget: it fails, and they are not stored.
      const { state: _dropped, ...rest } = outcome;
      outcome = { ...rest, status: "FAILED", outputs: {}, result: null, error: this.#tooLargeError() };
      terminal = this.#terminalEvent(outcome);
      this.#bytes.charge(terminal);
    }
    this.#sink.emit(terminal);
    this.#sink.close();
    void this.#sink.flush().then(() => (this.#fatal ? this.#rejectFatal() : this.#settle?.resolve(outcome)));
  }

  #terminalEvent(outcome: RunOutcome): RunEventDraft {
    const { outputs } = outcome;
    const usage = { usage: outcome.usage, ...(outcome.costUsd === null ? {} : { costUsd: outcome.costUsd }) };
    if (outcome.waitingFor) return { type: "RUN_WAITING", taskIds: outcome.waitingFor, outputs, ...usage };
    const state = outcome.state === undefined ? {} : { state: outcome.state };
    if (outcome.status === "CANCELLED") return { type: "RUN_CANCELLED", reason: this.#cancelReason ?? "cancelled", outputs, ...usage, ...state };
    if (outcome.status === "FAILED") return { type: "RUN_FAILED", error: outcome.error!, failedNodeIds: outcome.failedNodeIds, outputs, ...usage, ...state };
    return { type: "RUN_COMPLETED", result: outcome.result, outputs, ...usage, ...state };
  }

  #outcome(): RunOutcome {
    const { plan } = this.#deps;
    const { status, outputs: values } = this.#top.state;
    const outputs: Record<string, string> = {};
    plan.nodes.forEach((node, index) => {
      if (status[index] === DONE) outputs[node.id] = jsonText(values[index]);
    });
    const resultIndex = plan.resultNode;
    const result = resultIndex >= 0 && status[resultIndex] === DONE ? jsonText(values[resultIndex]) : null;
    const base = { outputs, result, usage: this.#usage, costUsd: this.#cost.spentUsd, failedNodeIds: [...this.#failed], ...(this.#store.declared ? { state: { ...this.#store.snapshot() } } : {}) };
    if (this.#cancelReason !== null) return { ...base, status: "CANCELLED", error: { code: "RUN_CANCELLED", message: this.#cancelReason } };
    if (this.#budgetError) return { ...base, status: "FAILED", error: this.#budgetError };
    if (base.failedNodeIds.length > 0) return { ...base, status: "FAILED", error: runError(base.failedNodeIds) };
    return { ...base, status: "COMPLETED", error: null };
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
}

function toEventErrorOf(error: Error & { code?: string }): EventError {
  return { code: error.code ?? "RUN_TOO_LARGE", message: error.message };
}

function topScopeOptions(onDone: () => void): ScopeOptions {
  return { prefix: "", keyPrefix: [], outerLoops: {}, outerFeedback: "", outerIteration: 1, onDone };
}

/** CEL `run.inputs`: what each input node starts with (the supplied content, else its own). */
function runInputsOf(plan: GraphPlan, supplied: ReadonlyMap<string, string>): Record<string, JsonValue> {
  const inputs: Record<string, JsonValue> = {};
  plan.nodes.forEach((node, index) => {
    if (plan.specs[index]!.inDegree.max === 0) inputs[node.id] = supplied.get(node.id) ?? node.content ?? "";
  });
  return inputs;
}

function cancelled(): BodyRunResult {
  return { ok: false, error: { code: "RUN_CANCELLED", message: "the run was cancelled" } };
}

/** Failures anywhere in the run are reported at top level by the node that failed there (a map or subgraph for its bodies). */
function runError(failedNodeIds: string[]): EventError {
  const first = failedNodeIds[0]!;
  const more = failedNodeIds.length > 1 ? ` and ${failedNodeIds.length - 1} more node(s)` : "";
  return { code: "NODE_FAILED", message: `node "${first}"${more} failed` };
}

function abortReason(signal: AbortSignal | undefined): string {
  const reason: unknown = signal?.reason;
  if (typeof reason === "string") return reason;
  if (reason instanceof Error && reason.name !== "AbortError") return reason.message;
  return "the run was cancelled";
}
