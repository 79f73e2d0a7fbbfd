import type { WorkflowEdge, WorkflowNode } from "../model/workflow.js";
import { edgesOutOf, type GraphIndex } from "./graph-index.js";

export interface FoundPath {
  nodes: WorkflowNode[];
  edges: WorkflowEdge[];
}

/** A shortest directed path from one node to another (breadth-first, O(V+E)), or null if none. */
export function findPath(index: GraphIndex, fromId: string, toId: string): FoundPath | null {
  const reachedBy = new Map<string, WorkflowEdge | null>([[fromId, null]]);
  const queue = [fromId];
  for (let head = 0; head < queue.length; head += 1) {
    const current = queue[head] as string;
    if (current === toId) return tracePath(index, reachedBy, toId);
    for (const edge of edgesOutOf(index, current)) {
      if (reachedBy.has(edge.target)) continue;
      reachedBy.set(edge.target, edge);
      queue.push(edge.target);
    }
  }
  return null;
}

function tracePath(index: GraphIndex, reachedBy: Map<string, WorkflowEdge | null>, toId: string): FoundPath {
  const edges: WorkflowEdge[] = [];
  for (let edge = reachedBy.get(toId); edge; edge = reachedBy.get(edge.source)) edges.push(edge);
  edges.reverse();
  const ids = edges.length === 0 ? [toId] : [edges[0]?.source as string, ...edges.map((edge) => edge.target)];
  return { nodes: ids.map((id) => index.nodes.get(id) as WorkflowNode), edges };
}
