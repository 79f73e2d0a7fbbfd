import type { WorkflowEdge, WorkflowNode } from "../model/workflow.js";
import { edgesInto, edgesOutOf, type GraphIndex } from "./graph-index.js";

export interface FoundCycle {
  /** The cycle's nodes in edge direction, starting anywhere on it. */
  nodes: WorkflowNode[];
  /** `edges[k]` goes from `nodes[k]` to `nodes[k + 1]` (the last one back to `nodes[0]`). */
  edges: WorkflowEdge[];
}

/**
 * Cycles of the graph in O(V+E), self-loops excluded (they have their own rule).
 *
 * Kahn's algorithm peels off every node that is not on or behind a cycle. Each node left over still
 * has a left-over pre-node, so walking pre-nodes from any of them must come back to a node of the same
 * walk: that closes a cycle. Nodes are never walked twice, so this reports one cycle per walk that
 * finds a new one, and at least one whenever the graph is cyclic.
 */
export function findCycles(index: GraphIndex): FoundCycle[] {
  const leftover = nodesOnOrBehindCycles(index);
  const walkOf = new Map<string, number>();
  const cycles: FoundCycle[] = [];
  let walk = 0;
  for (const start of leftover) {
    if (walkOf.has(start)) continue;
    walk += 1;
    const cycle = walkBack(index, start, leftover, walkOf, walk);
    if (cycle) cycles.push(cycle);
  }
  return cycles;
}

function nodesOnOrBehindCycles(index: GraphIndex): Set<string> {
  const pending = new Map<string, number>();
  const ready: string[] = [];
  for (const id of index.nodes.keys()) {
    let count = 0;
    for (const edge of edgesInto(index, id)) if (edge.source !== id) count += 1;
    pending.set(id, count);
    if (count === 0) ready.push(id);
  }
  for (let next = ready.pop(); next !== undefined; next = ready.pop()) {
    for (const edge of edgesOutOf(index, next)) {
      if (edge.target === next) continue;
      const left = (pending.get(edge.target) ?? 0) - 1;
      pending.set(edge.target, left);
      if (left === 0) ready.push(edge.target);
    }
    pending.delete(next);
  }
  return new Set(pending.keys());
}

function walkBack(
  index: GraphIndex,
  start: string,
  leftover: ReadonlySet<string>,
  walkOf: Map<string, number>,
  walk: number,
): FoundCycle | null {
  const visited: string[] = [];
  const via: WorkflowEdge[] = [];
  const position = new Map<string, number>();
  let current = start;
  for (;;) {
    const seenIn = walkOf.get(current);
    if (seenIn === walk) return closeCycle(index, visited, via, position.get(current) ?? 0);
    if (seenIn !== undefined) return null;
    walkOf.set(current, walk);
    position.set(current, visited.length);
    visited.push(current);
    const back = edgesInto(index, current).find((edge) => edge.source !== current && leftover.has(edge.source));
    if (!back) return null; // unreachable for a Kahn leftover; kept so a bad index cannot loop forever
    via.push(back);
    current = back.source;
  }
}

/** The walk went against edge direction; turn the closed part around. */
function closeCycle(index: GraphIndex, visited: string[], via: WorkflowEdge[], from: number): FoundCycle {
  const backwardNodes = visited.slice(from);
  const backwardEdges = via.slice(from);
  const forwardIds = [backwardNodes[0] as string, ...backwardNodes.slice(1).reverse()];
  return {
    nodes: forwardIds.map((id) => index.nodes.get(id) as WorkflowNode),
    edges: backwardEdges.reverse(),
  };
}
