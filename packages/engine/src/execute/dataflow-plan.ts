import { WeftError } from "../model/errors.js";
import type { WorkflowGraph, WorkflowNode } from "../model/workflow.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import type { NodeTypeDefinition } from "../registry/node-type-definition.js";

/**
 * Everything the runner needs to schedule a graph, computed once in O(V + E) by a pure function
 * (planning is kept apart from running, as LangGraph keeps `algo.ts` apart from `runner.ts`). Nodes are
 * addressed by their index in `graph.nodes`.
 */
export interface DataflowPlan {
  readonly nodes: readonly WorkflowNode[];
  readonly specs: readonly NodeTypeDefinition[];
  readonly indexById: ReadonlyMap<string, number>;
  /** Pre-nodes of each node in edge creation order (the order of `graph.edges`): its input order. */
  readonly preds: readonly (readonly number[])[];
  readonly succs: readonly (readonly number[])[];
  /** Nodes with no pre-node, in node order: ready when the run starts. */
  readonly sources: readonly number[];
  /** The node whose output is the run's result: the first node whose type feeds nothing, or -1. */
  readonly resultNode: number;
}

/**
 * Plans a graph for execution. Refuses what cannot be scheduled at all (unknown node types, duplicate
 * node ids, edges to missing nodes, cycles); the connection rules proper are the rule checker's job
 * and are expected to have passed before a run starts.
 */
export function planDataflow(graph: WorkflowGraph, registry: NodeTypeRegistry): DataflowPlan {
  const indexById = new Map<string, number>();
  const specs = graph.nodes.map((node, index) => {
    if (indexById.has(node.id)) {
      throw new WeftError("DUPLICATE_NODE_ID", `node id "${node.id}" appears more than once`, {
        details: { nodeIds: [node.id] },
      });
    }
    indexById.set(node.id, index);
    return registry.require(node.type);
  });
  const preds: number[][] = graph.nodes.map(() => []);
  const succs: number[][] = graph.nodes.map(() => []);
  for (const edge of graph.edges) {
    const source = indexById.get(edge.source);
    const target = indexById.get(edge.target);
    if (source === undefined || target === undefined) {
      const missing = source === undefined ? edge.source : edge.target;
      throw new WeftError("EDGE_UNKNOWN_NODE", `edge "${edge.id}" refers to node "${missing}", which does not exist`, {
        details: { edgeIds: [edge.id], nodeIds: [missing] },
      });
    }
    preds[target]!.push(source);
    succs[source]!.push(target);
  }
  const sources: number[] = [];
  preds.forEach((list, index) => {
    if (list.length === 0) sources.push(index);
  });
  assertAcyclic(graph.nodes, preds, succs, sources);
  const resultNode = specs.findIndex((spec) => spec.outDegree.max === 0);
  return { nodes: graph.nodes, specs, indexById, preds, succs, sources, resultNode };
}

/** Kahn's algorithm: a node never reached with all its pre-nodes done lies on (or behind) a cycle. */
function assertAcyclic(
  nodes: readonly WorkflowNode[],
  preds: readonly (readonly number[])[],
  succs: readonly (readonly number[])[],
  sources: readonly number[],
): void {
  const remaining = preds.map((list) => list.length);
  const stack = [...sources];
  let visited = 0;
  while (stack.length > 0) {
    const index = stack.pop()!;
    visited += 1;
    for (const next of succs[index]!) {
      remaining[next]! -= 1;
      if (remaining[next] === 0) stack.push(next);
    }
  }
  if (visited === nodes.length) return;
  const stuck = nodes.filter((_node, index) => remaining[index]! > 0).map((node) => node.id);
  throw new WeftError("CYCLE", `the graph has a cycle through ${stuck.length} node(s): ${stuck.slice(0, 10).join(", ")}`, {
    details: { nodeIds: stuck },
  });
}
