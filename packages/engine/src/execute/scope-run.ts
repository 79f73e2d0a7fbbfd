import type { EventError, RunEventDraft, SkipReason } from "../events/run-event.js";
import type { RunLimits } from "../limits/run-limits.js";
import { gateValue } from "../limits/value-gate.js";
import { isAbortError, WeftError } from "../model/errors.js";
import { jsonText, type JsonValue } from "../model/json-value.js";
import type { BodyRunRequest, BodyRunResult, NodeExecutionContext, NodeExecutionResult } from "../registry/node-type-definition.js";
import type { GraphPlan } from "./graph-plan.js";
import { emptyNodeDetails, NodeFailure } from "../registry/node-failure.js";
import type { FinishedInvocation } from "./run-resume.js";
import { buildNodeContext } from "./node-context.js";
import { applyLoopExits, loopInvocation, settleLoops } from "./loop-control.js";
import { DONE, EDGE_DEAD, EDGE_DONE, FAILED, PENDING, QUEUED, RUNNING, ScopeState, SKIPPED, WAITING } from "./scope-state.js";
import type { OrderKey } from "./state-store.js";
import type { NodeContextHost, ScopeFrame, ScopeView } from "./scope-view.js";

/** What a scope needs from the run it belongs to (the runner implements it). */
export interface ScopeHost extends NodeContextHost {
  readonly finished: boolean;
  /** `charged`: the event was already counted against the run's bytes (admitEvent). */
  emit(event: RunEventDraft, charged?: boolean): void;
  /** The run's limits (SPEC-V3 §1). */
  readonly limits: RunLimits;
  /** Counts an event against the run's bytes before it is emitted; false when it would pass WEFT_MAX_RUN_BYTES. */
  admitEvent(event: RunEventDraft): boolean;
  /** The run stops with RUN_TOO_LARGE: running nodes (this one among them) fail, the rest are skipped. */
  stopTooLarge(nodeId: string): void;
  /** Queues a node that does its own work (it takes a run slot); composite nodes start at once. */
  enqueue(scope: ScopeRun, node: number): void;
  /** A node that held a slot has ended. */
  leafEnded(scope: ScopeRun, node: number): void;
  /** Gives back the node's slot of the shared limiter, if it holds one (also after a cancellation). */
  releaseSlot(scope: ScopeRun, node: number): void;
  /** Counts a start against the run's budget; false when the budget is spent (the run then stops). */
  admit(scope: ScopeRun, node: number): boolean;
  nodeFailed(nodeId: string, error: EventError, scope: ScopeRun): void;
  addUsage(details: NodeExecutionResult["details"]): void;
  writeState(channel: string, key: OrderKey, value: JsonValue, nodeId: string, invocation: string): void;
  /** A resumed run: what an earlier attempt recorded for this invocation, if it had finished. */
  finishedEarlier(scope: ScopeRun, node: number, invocation: string): FinishedInvocation | null;
  /**
   * A resumed run: when an earlier attempt started this unfinished invocation, if it goes on rather than
   * starting again (a task it waits for, a map or subgraph whose body it re-derives); else null.
   */
  continuedFrom(scope: ScopeRun, node: number, invocation: string): string | null;
  afterEvents(): void;
  /** Nodes wait for their NODE_STARTED to be handled before they execute (ExecutionOptions.recordInFlight). */
  readonly recordInFlight: boolean;
  /** Settles once every event emitted so far has been handled. */
  eventsHandled(): Promise<void>;
  iso(): string;
  runBody(scope: ScopeRun, node: number, request: BodyRunRequest): Promise<BodyRunResult>;
}

export interface ScopeOptions extends ScopeFrame {
  onDone(scope: ScopeRun): void;
}

/**
 * One run of one graph: the top level, one map item, one subgraph invocation. Nodes start when their
 * incoming data edges are resolved and one delivered (SPEC-V2 §4); untaken router ports kill their
 * edges and what lies only behind them is skipped BRANCH_NOT_TAKEN; a failure skips what depends on
 * it at once, as in part 1; loops start their body again while a loop edge was taken. Edge
 * resolutions are processed from a work list, never by recursion, so long chains cost no stack.
 */
export class ScopeRun implements ScopeView {
  readonly state: ScopeState;
  readonly children = new Map<number, ScopeRun[]>();
  #work: Array<{ edge: number; state: number; value: JsonValue | undefined }> = [];
  #flushing = false;
  #done = false;

  constructor(
    readonly host: ScopeHost,
    readonly plan: GraphPlan,
    readonly options: ScopeOptions,
  ) {
    this.state = new ScopeState(plan);
  }

  get done(): boolean {
    return this.#done;
  }

  begin(): void {
    for (const node of this.plan.sources) this.#ready(node);
    this.#flush();
  }

  /** Called by the runner when a slot is free (or at once for composite nodes). */
  start(node: number): void {
    const { plan, state, host } = this;
    if (!host.admit(this, node)) return;
    const spec = plan.specs[node]!;
    const nodeId = plan.nodes[node]!.id;
    state.status[node] = RUNNING;
    state.startedAt[node] = host.iso();
    const invocation = loopInvocation(this, node);
    const earlier = host.finishedEarlier(this, node, invocation);
    if (earlier) return this.#replay(node, invocation, earlier);
    const continued = host.continuedFrom(this, node, invocation);
    if (continued === null) host.emit({ type: "NODE_STARTED", nodeId, nodeType: spec.type, invocation });
    else state.startedAt[node] = continued;
    if (host.finished) return;
    if (!host.recordInFlight) return this.#execute(node, invocation);
    void host.eventsHandled().then(() => {
      // Stopped while its start was being stored: it never began, so only its slot is given back.
      if (this.state.status[node] === RUNNING && !host.finished) this.#execute(node, invocation);
      else host.releaseSlot(this, node);
    });
  }

  #execute(node: number, invocation: string): void {
    const spec = this.plan.specs[node]!;
    let context: NodeExecutionContext;
    let execution: Promise<NodeExecutionResult>;
    try {
      context = buildNodeContext(this, node, invocation);
      execution = spec.execute(context);
    } catch (error) {
      execution = Promise.reject(error);
    }
    execution.then(
      (result) => this.#complete(node, invocation, result),
      (error: unknown) => this.#fail(node, invocation, error),
    );
  }

  /** A resumed run: the invocation ends as it ended before (its events, already stored, are not repeated). */
  #replay(node: number, invocation: string, earlier: FinishedInvocation): void {
    if (earlier.startedAt) this.state.startedAt[node] = earlier.startedAt;
    void Promise.resolve().then(() =>
      earlier.status === "COMPLETED"
        ? this.#complete(node, invocation, earlier.result)
        : this.#fail(node, invocation, new NodeFailure(new WeftError(earlier.error.code, earlier.error.message), earlier.details)),
    );
  }

  /** The node's inputs as delivered so far, in edge order. */
  inputsOf(node: number): { values: JsonValue[]; bySource: Record<string, JsonValue> } {
    const values: JsonValue[] = [];
    const bySource: Record<string, JsonValue> = {};
    for (const edge of this.plan.inEdges[node]!) {
      if (this.state.edgeState[edge] !== EDGE_DONE) continue;
      const value = this.state.edgeValue[edge]!;
      values.push(value);
      bySource[this.plan.nodes[this.plan.edges[edge]!.source]!.id] = value;
    }
    return { values, bySource };
  }

  #complete(node: number, invocation: string, result: NodeExecutionResult): void {
    const { state, host, plan } = this;
    host.releaseSlot(this, node);
    if (state.status[node] !== RUNNING || host.finished) return;
    const nodeId = plan.nodes[node]!.id;
    let ports: string[];
    try {
      // The gate first: a value over the limits is never serialized, stored or passed on.
      gateValue(result.output, host.limits, `the output of node "${nodeId}"`);
      if (result.value !== undefined) gateValue(result.value, host.limits, `the value node "${nodeId}" passes on`);
      ports = applyLoopExits(this, node, invocation, result.ports ?? ["out"]);
    } catch (error) {
      return this.#fail(node, invocation, NodeFailure.wrap(error, result.details));
    }
    const details = { ...result.details, startedAt: state.startedAt[node]!, finishedAt: host.iso() };
    const output = jsonText(result.output);
    const value = typeof result.output === "string" ? {} : { value: result.output };
    const routed = plan.specs[node]!.router ? { ports } : {};
    const passed = result.value === undefined ? {} : { passed: result.value };
    const feedback = result.feedback ? { feedback: result.feedback } : {};
    const completed: RunEventDraft = { type: "NODE_COMPLETED", nodeId, description: result.description, output, ...value, ...routed, ...passed, ...feedback, details, invocation };
    // Counted before anything changes, so a completion that would pass the run's budget stops the run with this node still running.
    if (!host.admitEvent(completed)) return host.stopTooLarge(nodeId);
    try {
      this.#writeState(node, invocation, result.output);
    } catch (error) {
      return this.#fail(node, invocation, NodeFailure.wrap(error, result.details));
    }
    if (!plan.specs[node]!.body) host.leafEnded(this, node);
    state.status[node] = DONE;
    state.outputs[node] = result.output;
    host.addUsage(result.details);
    host.emit(completed, true);
    if (plan.specs[node]!.router) {
      const skipped = plan.specs[node]!.router!.ports(plan.nodes[node]!).filter((port) => !ports.includes(port));
      host.emit({ type: "BRANCH_TAKEN", nodeId, ports, skipped, invocation });
    }
    const flowing = result.value !== undefined ? result.value : result.output;
    this.#recordLoopEdges(node, ports, flowing, result.feedback ?? "");
    for (const edge of plan.outEdges[node]!) this.#deliver(edge, ports.includes(plan.edges[edge]!.port) ? EDGE_DONE : EDGE_DEAD, flowing);
    state.resolve(node);
    this.#flush();
    host.afterEvents();
  }

  #fail(node: number, invocation: string, error: unknown): void {
    const { state, host, plan } = this;
    host.releaseSlot(this, node);
    if (state.status[node] !== RUNNING || host.finished) return;
    if (!plan.specs[node]!.body) host.leafEnded(this, node);
    state.status[node] = FAILED;
    const partial = error instanceof NodeFailure ? error.partial : emptyNodeDetails(this.inputsOf(node).values.map(jsonText));
    host.addUsage(partial);
    const nodeId = plan.nodes[node]!.id;
    const details = { ...partial, startedAt: state.startedAt[node]!, finishedAt: host.iso() };
    const eventError = toEventError(error);
    host.emit({ type: "NODE_FAILED", nodeId, error: eventError, details, invocation });
    host.nodeFailed(nodeId, eventError, this);
    for (const loop of plan.loopChain[node]!) state.loops[loop.index]!.failed = true;
    state.resolve(node);
    this.skipDownstream(node, "UPSTREAM_FAILED", nodeId);
    this.#flush();
    host.afterEvents();
  }

  /** Part 1's rule: everything still pending behind a failed node is skipped at once (breadth-first, O(V+E)). */
  skipDownstream(from: number, reason: SkipReason, blockedBy: string): void {
    const { plan, state } = this;
    const frontier = [from];
    for (let head = 0; head < frontier.length; head += 1) {
      for (const edge of plan.outEdges[frontier[head]!]!) {
        const next = plan.edges[edge]!.target;
        if (state.status[next] !== PENDING) continue;
        this.#skip(next, reason, blockedBy);
        frontier.push(next);
      }
    }
  }

  /** Run cancellation or a spent budget: running nodes fail, waiting ones are skipped, bodies first. */
  stopAll(error: EventError, reason: SkipReason, blockedBy: string | null): void {
    const { plan, state, host } = this;
    plan.nodes.forEach((node, index) => {
      const status = state.status[index];
      if (status === RUNNING) {
        for (const child of this.children.get(index) ?? []) if (!child.done) child.stopAll(error, reason, blockedBy);
        state.status[index] = FAILED;
        const details = { ...emptyNodeDetails(this.inputsOf(index).values.map(jsonText)), startedAt: state.startedAt[index]!, finishedAt: host.iso() };
        host.emit({ type: "NODE_FAILED", nodeId: node.id, error, details, invocation: loopInvocation(this, index) });
      } else if (status === PENDING || status === QUEUED || status === WAITING) {
        state.status[index] = SKIPPED;
        host.emit({ type: "NODE_SKIPPED", nodeId: node.id, reason, blockedBy, invocation: loopInvocation(this, index) });
      }
    });
    this.#done = true;
  }

  /** The body's result for the map or subgraph node that asked for this scope. */
  result(): BodyRunResult {
    const { plan, state } = this;
    const result = plan.resultNode;
    if (result >= 0 && state.status[result] === DONE) return { ok: true, value: state.outputs[result]! };
    for (let node = 0; node < plan.nodes.length; node += 1) {
      if (state.status[node] === FAILED) return { ok: false, error: { code: "BODY_FAILED", message: `node "${plan.nodes[node]!.id}" of the body failed` } };
    }
    return { ok: false, error: { code: "BODY_NO_OUTPUT", message: "the body's output node did not run (its branch was not taken)" } };
  }

  #deliver(edge: number, edgeState: number, value: JsonValue | undefined): void {
    const planned = this.plan.edges[edge]!;
    if (planned.heldBy) this.state.loops[planned.heldBy.index]!.held.set(edge, { state: edgeState, value });
    else this.#work.push({ edge, state: edgeState, value });
  }

  runBody(node: number, request: BodyRunRequest): Promise<BodyRunResult> {
    return this.host.runBody(this, node, request);
  }

  /** Releases edges a finished loop held back, in edge order. */
  release(held: ReadonlyMap<number, { state: number; value: JsonValue | undefined }>): void {
    for (const edge of [...held.keys()].sort((a, b) => a - b)) {
      const entry = held.get(edge)!;
      this.#work.push({ edge, state: entry.state, value: entry.value });
    }
  }

  /** A node whose inputs are settled again (a loop header in a new iteration) is looked at once more. */
  reconsider(node: number): void {
    this.#consider(node);
  }

  #flush(): void {
    if (this.#flushing || this.#done) return;
    this.#flushing = true;
    try {
      for (;;) {
        while (this.#work.length > 0) {
          const { edge, state: edgeState, value } = this.#work.shift()!;
          this.#resolveEdge(edge, edgeState, value);
        }
        if (!settleLoops(this)) break;
      }
    } finally {
      this.#flushing = false;
    }
    if (this.state.pending === 0 && !this.#done) {
      this.#done = true;
      this.options.onDone(this);
    }
  }

  #resolveEdge(edge: number, edgeState: number, value: JsonValue | undefined): void {
    const { state, plan } = this;
    state.edgeState[edge] = edgeState;
    state.edgeValue[edge] = value;
    const target = plan.edges[edge]!.target;
    state.unresolved[target]! -= 1;
    if (edgeState === EDGE_DONE) state.delivered[target]! += 1;
    this.#consider(target);
  }

  #consider(node: number): void {
    const { state, plan } = this;
    if (state.status[node] !== PENDING) return;
    const first = plan.specs[node]!.readiness?.(plan.nodes[node]!) === "first";
    if ((first && state.delivered[node]! > 0) || (state.unresolved[node] === 0 && state.delivered[node]! > 0)) this.#ready(node);
    else if (state.unresolved[node] === 0) this.#skip(node, "BRANCH_NOT_TAKEN", null);
  }

  #ready(node: number): void {
    this.state.status[node] = QUEUED;
    if (this.plan.specs[node]!.body) this.start(node);
    else this.host.enqueue(this, node);
  }

  #skip(node: number, reason: SkipReason, blockedBy: string | null): void {
    const { state, plan, host } = this;
    state.status[node] = SKIPPED;
    host.emit({ type: "NODE_SKIPPED", nodeId: plan.nodes[node]!.id, reason, blockedBy, invocation: loopInvocation(this, node) });
    state.resolve(node);
    if (reason === "BRANCH_NOT_TAKEN") for (const edge of plan.outEdges[node]!) this.#deliver(edge, EDGE_DEAD, undefined);
  }

  #recordLoopEdges(node: number, ports: readonly string[], value: JsonValue, feedback: string): void {
    const loops = this.plan.loopEdgesOut[node]!;
    if (loops.size === 0) return;
    for (const port of ports) {
      const loop = loops.get(port);
      if (!loop) continue;
      const order = loop.edges.findIndex((edge) => edge.source === node && edge.port === port);
      this.state.loops[loop.index]!.taken.push({ order, source: node, feedback, value });
    }
  }

  #writeState(node: number, invocation: string, output: JsonValue): void {
    const channel = this.plan.nodes[node]!.config?.writes;
    if (typeof channel !== "string") return;
    this.host.writeState(channel, this.orderKey(node), output, this.plan.nodes[node]!.id, invocation);
  }

  /** The write order of this node's current invocation (see OrderKey). */
  orderKey(node: number): OrderKey {
    const key = [...this.options.keyPrefix];
    for (const loop of this.plan.loopChain[node]!) key.push(this.plan.rank[loop.header]!, loop.header, this.state.loops[loop.index]!.iteration);
    key.push(this.plan.rank[node]!, node);
    return key;
  }
}

export function toEventError(error: unknown): EventError {
  if (error instanceof WeftError) return { code: error.code, message: error.message };
  if (error instanceof Error && error.name === "TimeoutError") {
    return { code: "PROVIDER_TIMEOUT", message: error.message || "a call made by the node timed out" };
  }
  if (isAbortError(error)) return { code: "NODE_ABORTED", message: "the node's work was aborted" };
  return { code: "INTERNAL_ERROR", message: error instanceof Error ? error.message : String(error) };
}
