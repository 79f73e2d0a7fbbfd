import type { EventError, NodeEventDraft, NodeRunDetails, RunEventDraft } from "../events/run-event.js";
import type { RunLimits } from "../limits/run-limits.js";
import { gateValue } from "../limits/value-gate.js";
import { jsonText } from "../model/json-value.js";
import { emptyNodeDetails, NodeFailure, type PartialNodeDetails } from "../registry/node-failure.js";
import type { ChildInvocation, ChildInvocationOutcome, ChildInvocationRequest, NodeExecutionResult } from "../registry/node-type-definition.js";
import type { FinishedInvocation } from "./run-resume.js";
import { toEventError } from "./scope-run.js";

/** What child invocations need from the run (the runner implements it). */
export interface ChildInvocationHost {
  readonly finished: boolean;
  readonly limits: RunLimits;
  /** `charged`: the event was already counted against the run's bytes (admitEvent). */
  emit(event: RunEventDraft, charged?: boolean): void;
  admitEvent(event: RunEventDraft): boolean;
  /** The run stops with RUN_TOO_LARGE. */
  stopTooLarge(nodeId: string): void;
  iso(): string;
  addUsage(details: Pick<NodeRunDetails, "usage">): void;
  /** Counts a child's start against the run's budget; false when it is spent (the run then stops). */
  admitChild(nodeId: string): boolean;
  /** A resumed run: how an earlier attempt finished this invocation, if it did. */
  finishedInvocation(nodeId: string, invocation: string): FinishedInvocation | null;
}

/** The invocation asking: gives its slot back while its children work and takes one again after. */
export interface ChildParent {
  nodeId: string;
  invocation: string;
  park(): void;
  unpark(): Promise<void>;
}

interface ActiveChild {
  nodeId: string;
  invocation: string;
  startedAt: string;
  inputs: string[];
  /** What the work has filled in so far (ChildInvocation.track). */
  details?: PartialNodeDetails;
}

const STOPPED: EventError = { code: "RUN_CANCELLED", message: "the run ended while this call was running" };

/**
 * The child invocations of a run (SPEC-V3 §3: each tool call of an agent is an invocation of its own,
 * `"<agentId>@<step>.<n>"`). A child has its own NODE_STARTED and NODE_COMPLETED or NODE_FAILED — the
 * node run of the call — and counts against the run's budget; its output crosses the value gate. In a
 * resumed run a child an earlier attempt had finished is replayed from its recorded result and not run
 * again, which is what keeps a completed tool call from being repeated after a crash. When the run stops,
 * children still running fail with the run's reason, so no node run is left running.
 */
export class ChildInvocations {
  readonly #host: ChildInvocationHost;
  readonly #active = new Set<ActiveChild>();

  constructor(host: ChildInvocationHost) {
    this.#host = host;
  }

  async run(parent: ChildParent, requests: readonly ChildInvocationRequest[]): Promise<ChildInvocationOutcome[]> {
    const outcomes: ChildInvocationOutcome[] = new Array(requests.length);
    const live: number[] = [];
    requests.forEach((request, k) => {
      const invocation = childPath(parent.invocation, request.segment);
      const earlier = this.#host.finishedInvocation(parent.nodeId, invocation);
      if (earlier) outcomes[k] = replayed(earlier);
      else live.push(k);
    });
    if (live.length === 0) return outcomes;
    parent.park();
    try {
      await Promise.all(live.map(async (k) => (outcomes[k] = await this.#runOne(parent.nodeId, childPath(parent.invocation, requests[k]!.segment), requests[k]!))));
    } finally {
      await parent.unpark();
    }
    return outcomes;
  }

  /** The run is stopping: every child still running fails with the run's reason (before its parent does). */
  stopAll(error: EventError): void {
    for (const child of this.#active) {
      const details = { ...(child.details ?? emptyNodeDetails(child.inputs)), startedAt: child.startedAt, finishedAt: this.#host.iso() };
      this.#host.emit({ type: "NODE_FAILED", nodeId: child.nodeId, error, details, invocation: child.invocation });
    }
    this.#active.clear();
  }

  async #runOne(nodeId: string, invocation: string, request: ChildInvocationRequest): Promise<ChildInvocationOutcome> {
    const host = this.#host;
    if (host.finished || !host.admitChild(nodeId)) return stopped();
    const active: ActiveChild = { nodeId, invocation, startedAt: host.iso(), inputs: [] };
    this.#active.add(active);
    host.emit({ type: "NODE_STARTED", nodeId, nodeType: request.nodeType, invocation });
    const child: ChildInvocation = {
      invocation,
      emit: (event: NodeEventDraft) => {
        if (this.#active.has(active) && !host.finished) host.emit({ ...event, invocation } as RunEventDraft);
      },
      track: (details) => (active.details = details),
    };
    let result: NodeExecutionResult;
    try {
      result = await request.work(child);
      active.inputs = result.details.inputs;
      gateValue(result.output, host.limits, `the result of call "${invocation}"`);
    } catch (error) {
      return this.#failed(active, error);
    }
    if (!this.#active.delete(active) || host.finished) return stopped();
    const details = { ...result.details, startedAt: active.startedAt, finishedAt: host.iso() };
    const value = typeof result.output === "string" ? {} : { value: result.output };
    const completed: RunEventDraft = { type: "NODE_COMPLETED", nodeId, description: result.description, output: jsonText(result.output), ...value, details, invocation };
    if (!host.admitEvent(completed)) {
      this.#active.add(active);
      host.stopTooLarge(nodeId);
      return stopped();
    }
    host.addUsage(result.details);
    host.emit(completed, true);
    return { ok: true, result, replayed: false };
  }

  #failed(active: ActiveChild, error: unknown): ChildInvocationOutcome {
    if (!this.#active.delete(active) || this.#host.finished) return stopped();
    const partial = error instanceof NodeFailure ? error.partial : emptyNodeDetails(active.inputs);
    this.#host.addUsage(partial);
    const eventError = toEventError(error);
    const details = { ...partial, startedAt: active.startedAt, finishedAt: this.#host.iso() };
    this.#host.emit({ type: "NODE_FAILED", nodeId: active.nodeId, error: eventError, details, invocation: active.invocation });
    return { ok: false, error: eventError, details: partial, replayed: false };
  }
}

/** A child's invocation path: the segment under its parent's (`"a@1.1"`, `"regen#2/a@1.1"`). */
export function childPath(parent: string, segment: string): string {
  return parent === "" ? segment : `${parent}/${segment}`;
}

function replayed(earlier: FinishedInvocation): ChildInvocationOutcome {
  if (earlier.status === "COMPLETED") return { ok: true, result: earlier.result, replayed: true };
  return { ok: false, error: earlier.error, details: earlier.details, replayed: true };
}

function stopped(): ChildInvocationOutcome {
  return { ok: false, error: STOPPED, details: emptyNodeDetails([]), replayed: false };
}
