import type { JsonValue } from "../model/json-value.js";
import { inLoop, type GraphPlan, type PlannedLoop } from "./graph-plan.js";

export const PENDING = 0;
export const QUEUED = 1;
export const WAITING = 2;
export const RUNNING = 3;
export const DONE = 4;
export const FAILED = 5;
export const SKIPPED = 6;

export const EDGE_PENDING = 0;
export const EDGE_DONE = 1;
export const EDGE_DEAD = 2;

/** One loop of a scope while it runs: its iteration, what its body still has to resolve, what it holds back. */
export interface LoopRun {
  readonly loop: PlannedLoop;
  active: boolean;
  iteration: number;
  /** Body nodes not yet resolved (done, failed or skipped) in this iteration. */
  pending: number;
  /** A body node failed in this iteration: no further iteration starts. */
  failed: boolean;
  /** Loop edges taken in this iteration, by the loop edge's position in the loop. */
  taken: Array<{ order: number; source: number; feedback: string; value: JsonValue }>;
  /** `{feedback}` and the loop edges' values (`{input.<router>}`) for the header of this iteration. */
  feedback: string;
  loopValues: Record<string, JsonValue>;
  /** Edges leaving the body, resolved by this iteration but released only when the loop ends. */
  held: Map<number, { state: number; value: JsonValue | undefined }>;
}

/**
 * The per-node and per-edge arrays of one scope (one run of a graph), with the bookkeeping that keeps
 * them consistent when a loop's body starts again. Pure state; the scope decides what happens.
 */
export class ScopeState {
  readonly status: Uint8Array;
  readonly edgeState: Uint8Array;
  readonly edgeValue: Array<JsonValue | undefined>;
  readonly unresolved: Int32Array;
  readonly delivered: Int32Array;
  readonly outputs: Array<JsonValue | undefined>;
  readonly startedAt: Array<string | undefined>;
  readonly holdsSlot: Uint8Array;
  readonly loops: LoopRun[];
  /** Nodes of the scope not yet resolved. */
  pending: number;

  constructor(readonly plan: GraphPlan) {
    const count = plan.nodes.length;
    this.status = new Uint8Array(count);
    this.edgeState = new Uint8Array(plan.edges.length);
    this.edgeValue = new Array<JsonValue | undefined>(plan.edges.length);
    this.unresolved = Int32Array.from(plan.inEdges, (list) => list.length);
    this.delivered = new Int32Array(count);
    this.outputs = new Array<JsonValue | undefined>(count);
    this.startedAt = new Array<string | undefined>(count);
    this.holdsSlot = new Uint8Array(count);
    this.pending = count;
    this.loops = plan.loops.map((loop) => freshLoop(loop));
  }

  /** Counts a node as resolved, in the scope and in every loop whose body holds it. */
  resolve(node: number): void {
    this.pending -= 1;
    for (const loop of this.plan.loopChain[node]!) this.loops[loop.index]!.pending -= 1;
  }

  /**
   * Makes a loop's body pending again for its next iteration: body nodes and the edges between them
   * go back to pending, the header keeps what its entry edges delivered, loops nested inside start
   * again from their first iteration.
   */
  resetBody(loop: PlannedLoop): void {
    const { plan } = this;
    for (const node of loop.body) {
      this.status[node] = PENDING;
      this.outputs[node] = undefined;
      this.startedAt[node] = undefined;
      this.unresolved[node] = plan.inEdges[node]!.length;
      this.delivered[node] = 0;
      for (const edge of plan.inEdges[node]!) {
        if (inLoop(plan.loopChain[plan.edges[edge]!.source]!, loop)) {
          this.edgeState[edge] = EDGE_PENDING;
          this.edgeValue[edge] = undefined;
        } else if (this.edgeState[edge] !== EDGE_PENDING) {
          this.unresolved[node] -= 1;
          if (this.edgeState[edge] === EDGE_DONE) this.delivered[node] += 1;
        }
      }
    }
    this.pending += loop.body.length;
    for (let outer = loop.parent; outer; outer = outer.parent) this.loops[outer.index]!.pending += loop.body.length;
    for (const inner of loop.nested) this.loops[inner.index] = freshLoop(inner);
    const run = this.loops[loop.index]!;
    run.pending = loop.body.length;
    run.failed = false;
    run.taken = [];
    run.held.clear();
  }
}

function freshLoop(loop: PlannedLoop): LoopRun {
  return { loop, active: true, iteration: 1, pending: loop.body.length, failed: false, taken: [], feedback: "", loopValues: {}, held: new Map() };
}
