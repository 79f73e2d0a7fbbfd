import { WeftError } from "../model/errors.js";
import type { ScopeView } from "./scope-view.js";

/**
 * Loops while a scope runs (SPEC-V2 §4). A loop edge taken in iteration k starts iteration k + 1 once
 * the body is quiescent (every body node resolved); the header then runs again with `{feedback}` (the
 * reasons of the routers that sent it back, joined in loop-edge order) and `{iteration}`. With no loop
 * edge taken, or a failure in the body, the loop ends and releases the edges that leave its body, as
 * decided by its final iteration. Several loop edges of one loop share its counter.
 */

/** `""`, or `"regen#2"`, `"outer#2/inner#3"`, under the scope's own prefix. */
export function loopInvocation(scope: ScopeView, node: number): string {
  let path = scope.options.prefix;
  for (const loop of scope.plan.loopChain[node]!) {
    const iteration = scope.state.loops[loop.index]!.iteration;
    if (iteration > 1) path = path === "" ? `${loop.id}#${iteration}` : `${path}/${loop.id}#${iteration}`;
  }
  return path;
}

/**
 * A router that would take a loop edge while its loop is on its last iteration takes the loop's
 * `exit` port instead, with a LOOP_EXHAUSTED event; with no exit it fails with LOOP_EXHAUSTED.
 */
export function applyLoopExits(scope: ScopeView, node: number, invocation: string, ports: readonly string[]): string[] {
  const loops = scope.plan.loopEdgesOut[node]!;
  if (loops.size === 0) return [...ports];
  const result: string[] = [];
  const nodeId = scope.plan.nodes[node]!.id;
  for (const port of ports) {
    const loop = loops.get(port);
    const run = loop ? scope.state.loops[loop.index]! : null;
    if (!loop || !run || run.iteration < loop.max) {
      if (!result.includes(port)) result.push(port);
      continue;
    }
    scope.host.emit({ type: "LOOP_EXHAUSTED", loopId: loop.id, nodeId, max: loop.max, exit: loop.exit, invocation });
    if (loop.exit === null) {
      throw new WeftError("LOOP_EXHAUSTED", `loop "${loop.id}" reached its maximum of ${loop.max} iterations and has no exit port`, {
        details: { loopId: loop.id },
      });
    }
    if (!result.includes(loop.exit)) result.push(loop.exit);
  }
  return result;
}

/** Handles the innermost quiescent loop, if any; true when it changed something (more work may follow). */
export function settleLoops(scope: ScopeView): boolean {
  const { state, host } = scope;
  for (let k = state.loops.length - 1; k >= 0; k -= 1) {
    const run = state.loops[k]!;
    if (!run.active || run.pending !== 0) continue;
    if (run.taken.length > 0 && !run.failed && !host.finished) {
      startIteration(scope, k);
    } else {
      run.active = false;
      const held = run.held;
      run.held = new Map();
      scope.release(held);
    }
    return true;
  }
  return false;
}

function startIteration(scope: ScopeView, k: number): void {
  const run = scope.state.loops[k]!;
  const { loop } = run;
  const taken = [...run.taken].sort((a, b) => a.order - b.order);
  const feedback = taken.map((entry) => entry.feedback).filter((text) => text !== "").join("\n\n");
  const loopValues = Object.fromEntries(taken.map((entry) => [scope.plan.nodes[entry.source]!.id, entry.value]));
  const iteration = run.iteration + 1;
  scope.state.resetBody(loop);
  run.iteration = iteration;
  run.feedback = feedback;
  run.loopValues = loopValues;
  scope.host.emit({ type: "LOOP_ITERATION", loopId: loop.id, iteration, max: loop.max, feedback, invocation: loopInvocation(scope, loop.header) });
  scope.reconsider(loop.header);
}
