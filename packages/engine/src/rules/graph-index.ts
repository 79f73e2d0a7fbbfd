import { WeftError } from "../model/errors.js";
import type { WorkflowEdge, WorkflowGraph, WorkflowNode } from "../model/workflow.js";

/**
 * Adjacency of a graph, built once in O(V+E) and shared by every rule. Edge lists keep creation order.
 * `incoming` and `outgoing` hold data edges only; loop edges (SPEC-V2 §4) are kept apart in
 * `loopEdges`: they are not data edges, so degrees and CYCLE ignore them.
 */
export interface GraphIndex {
  readonly nodes: ReadonlyMap<string, WorkflowNode>;
  readonly incoming: ReadonlyMap<string, readonly WorkflowEdge[]>;
  readonly outgoing: ReadonlyMap<string, readonly WorkflowEdge[]>;
  readonly loopEdges: readonly WorkflowEdge[];
}

const NO_EDGES: readonly WorkflowEdge[] = Object.freeze([]);

/**
 * Rules assume a well-formed graph: unique node ids and edges between existing nodes. The document
 * parser and the database both guarantee it, so a break here is a bug in the caller, not user input.
 */
export function indexGraph(graph: WorkflowGraph): GraphIndex {
  const nodes = new Map<string, WorkflowNode>();
  const incoming = new Map<string, WorkflowEdge[]>();
  const outgoing = new Map<string, WorkflowEdge[]>();
  const loopEdges: WorkflowEdge[] = [];
  for (const node of graph.nodes) {
    if (nodes.has(node.id)) throw malformed(`node id "${node.id}" is used twice`);
    nodes.set(node.id, node);
    incoming.set(node.id, []);
    outgoing.set(node.id, []);
  }
  for (const edge of graph.edges) {
    const out = outgoing.get(edge.source);
    const into = incoming.get(edge.target);
    if (!out) throw malformed(`edge "${edge.id}" starts at missing node "${edge.source}"`);
    if (!into) throw malformed(`edge "${edge.id}" ends at missing node "${edge.target}"`);
    if (edge.loop !== undefined) {
      loopEdges.push(edge);
      continue;
    }
    out.push(edge);
    into.push(edge);
  }
  return { nodes, incoming, outgoing, loopEdges };
}

export function edgesInto(index: GraphIndex, nodeId: string): readonly WorkflowEdge[] {
  return index.incoming.get(nodeId) ?? NO_EDGES;
}

export function edgesOutOf(index: GraphIndex, nodeId: string): readonly WorkflowEdge[] {
  return index.outgoing.get(nodeId) ?? NO_EDGES;
}

function malformed(message: string): WeftError {
  return new WeftError("MALFORMED_GRAPH", message, { audience: "internal" });
}
