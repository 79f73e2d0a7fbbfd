import type { WorkflowEdge, WorkflowNode } from "../model/workflow.js";
import type { GraphIndex } from "./graph-index.js";

export interface FoundPath {
  nodes: WorkflowNode[];
  edges: WorkflowEdge[];
}

const UNSEEN = -2;
const START = -1;

/** A shortest directed path by data edges from one node to another (breadth-first, O(V+E)), or null if none. */
export function findPath(index: GraphIndex, fromId: string, toId: string): FoundPath | null {
  const from = index.position.get(fromId);
  const to = index.position.get(toId);
  if (from === undefined || to === undefined) return null;
  // The edge each node was first reached by, or UNSEEN / START.
  const reachedBy = new Int32Array(index.ids.length).fill(UNSEEN);
  const queue = new Int32Array(index.ids.length);
  let tail = 0;
  queue[tail++] = from;
  reachedBy[from] = START;
  for (let head = 0; head < tail; head += 1) {
    const current = queue[head]!;
    if (current === to) return tracePath(index, reachedBy, to);
    for (let slot = index.outStart[current]!; slot < index.outStart[current + 1]!; slot += 1) {
      const edge = index.outEdge[slot]!;
      const next = index.edgeTarget[edge]!;
      if (reachedBy[next] !== UNSEEN) continue;
      reachedBy[next] = edge;
      queue[tail++] = next;
    }
  }
  return null;
}

function tracePath(index: GraphIndex, reachedBy: Int32Array, to: number): FoundPath {
  const numbers: number[] = [];
  for (let edge = reachedBy[to]!; edge >= 0; edge = reachedBy[index.edgeSource[edge]!]!) numbers.push(edge);
  numbers.reverse();
  const nodes = numbers.length === 0 ? [to] : [index.edgeSource[numbers[0]!]!, ...numbers.map((edge) => index.edgeTarget[edge]!)];
  return { nodes: nodes.map((k) => index.nodeList[k]!), edges: numbers.map((edge) => index.edgeList[edge]!) };
}
