import type { WorkflowEdge, WorkflowNode } from "../model/workflow.js";
import type { GraphIndex } from "./graph-index.js";

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
  const walk = { of: new Int32Array(index.ids.length), at: new Int32Array(index.ids.length) };
  const cycles: FoundCycle[] = [];
  let number = 0;
  for (let start = 0; start < leftover.length; start += 1) {
    if (leftover[start] === 0 || walk.of[start] !== 0) continue;
    number += 1;
    const cycle = walkBack(index, start, leftover, walk, number);
    if (cycle) cycles.push(cycle);
  }
  return cycles;
}

/** 1 for each node Kahn's algorithm cannot peel off (self-loops aside). */
function nodesOnOrBehindCycles(index: GraphIndex): Uint8Array {
  const size = index.ids.length;
  const pending = new Int32Array(size);
  const ready: number[] = [];
  for (let node = 0; node < size; node += 1) {
    let count = 0;
    for (let slot = index.inStart[node]!; slot < index.inStart[node + 1]!; slot += 1) if (index.edgeSource[index.inEdge[slot]!] !== node) count += 1;
    pending[node] = count;
    if (count === 0) ready.push(node);
  }
  const leftover = new Uint8Array(size).fill(1);
  for (let next = ready.pop(); next !== undefined; next = ready.pop()) {
    for (let slot = index.outStart[next]!; slot < index.outStart[next + 1]!; slot += 1) {
      const target = index.edgeTarget[index.outEdge[slot]!]!;
      if (target === next) continue;
      pending[target]! -= 1;
      if (pending[target] === 0) ready.push(target);
    }
    leftover[next] = 0;
  }
  return leftover;
}

/** `walk.of[k]`: the walk that visited node k (0: none); `walk.at[k]`: its place in that walk. */
function walkBack(index: GraphIndex, start: number, leftover: Uint8Array, walk: { of: Int32Array; at: Int32Array }, number: number): FoundCycle | null {
  const visited: number[] = [];
  const via: number[] = [];
  let current = start;
  for (;;) {
    if (walk.of[current] === number) return closeCycle(index, visited, via, walk.at[current]!);
    if (walk.of[current] !== 0) return null;
    walk.of[current] = number;
    walk.at[current] = visited.length;
    visited.push(current);
    let back = -1;
    for (let slot = index.inStart[current]!; slot < index.inStart[current + 1]! && back === -1; slot += 1) {
      const edge = index.inEdge[slot]!;
      const source = index.edgeSource[edge]!;
      if (source !== current && leftover[source] === 1) back = edge;
    }
    if (back === -1) return null; // unreachable for a Kahn leftover; kept so a bad index cannot loop forever
    via.push(back);
    current = index.edgeSource[back]!;
  }
}

/** The walk went against edge direction; turn the closed part around. */
function closeCycle(index: GraphIndex, visited: number[], via: number[], from: number): FoundCycle {
  const backwardNodes = visited.slice(from);
  const backwardEdges = via.slice(from);
  const forward = [backwardNodes[0]!, ...backwardNodes.slice(1).reverse()];
  return {
    nodes: forward.map((k) => index.nodeList[k]!),
    edges: backwardEdges.reverse().map((edge) => index.edgeList[edge]!),
  };
}
