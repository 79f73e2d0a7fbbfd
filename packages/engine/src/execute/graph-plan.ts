import { compileExpression, type CompiledExpression } from "../expression/cel-expression.js";
import { WeftError } from "../model/errors.js";
import { DEFAULT_PORT, type WorkflowGraph, type WorkflowNode } from "../model/workflow.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import type { NodeTypeDefinition } from "../registry/node-type-definition.js";
import { findCycles } from "../rules/find-cycles.js";
import { analyzeGraph, type GraphAnalysis } from "../rules/graph-analysis.js";
import { indexGraph } from "../rules/graph-index.js";
import { analyzeLoops, largestFirst, type AnalyzedLoop } from "../rules/loop-analysis.js";

/** A data edge of a plan, by node index. */
export interface PlannedEdge {
  readonly id: string;
  readonly source: number;
  readonly target: number;
  readonly port: string;
  /** The outermost loop whose body the edge leaves: its value waits for that loop's final iteration. */
  readonly heldBy: PlannedLoop | null;
}

export interface PlannedLoop {
  readonly id: string;
  readonly index: number;
  readonly max: number;
  readonly exit: string | null;
  readonly header: number;
  readonly body: readonly number[];
  readonly parent: PlannedLoop | null;
  /** Nesting depth: 0 for an outermost loop. */
  readonly depth: number;
  /** Loops nested inside this one, at any depth (they start over in each of its iterations). */
  readonly nested: PlannedLoop[];
  /** Loop edges as (source node, port), in edge order. */
  readonly edges: readonly { id: string; source: number; port: string }[];
}

/**
 * Everything the runner needs to run one graph (the top level or a body), computed once per run in
 * near-linear time by a pure function (planning is kept apart from running): node indices, data edges
 * in creation order, loops with their bodies, compiled CEL, the plans of bodies, and each node's rank
 * in a topological order (state writes merge in that order).
 */
export interface GraphPlan {
  readonly nodes: readonly WorkflowNode[];
  readonly specs: readonly NodeTypeDefinition[];
  readonly indexById: ReadonlyMap<string, number>;
  readonly edges: readonly PlannedEdge[];
  /** Per node: its incoming data edges (indices into `edges`) in creation order: its input order. */
  readonly inEdges: readonly (readonly number[])[];
  readonly outEdges: readonly (readonly number[])[];
  /** Per node: loop edges leaving it, by port. */
  readonly loopEdgesOut: readonly ReadonlyMap<string, PlannedLoop>[];
  readonly connectedPorts: readonly ReadonlySet<string>[];
  readonly sources: readonly number[];
  /** The node whose output is the graph's result (a type that feeds nothing), or -1. */
  readonly resultNode: number;
  /** The node a body's value goes to (a type that takes no pre-node), or -1. */
  readonly entryNode: number;
  readonly loops: readonly PlannedLoop[];
  /** Per node: the loops containing it, outermost first. */
  readonly loopChain: readonly (readonly PlannedLoop[])[];
  readonly rank: Int32Array;
  readonly expressions: readonly ReadonlyMap<string, CompiledExpression>[];
  readonly bodies: readonly (GraphPlan | null)[];
}

/**
 * Plans a graph for execution. Refuses what cannot be scheduled at all (unknown node types, duplicate
 * node ids, edges to missing nodes, data cycles, malformed loops, expressions that do not compile,
 * bodies that are missing); the rules proper are the rule checker's job and are expected to have
 * passed before a run starts.
 */
export function planGraph(graph: WorkflowGraph, registry: NodeTypeRegistry, inItemScope = false): GraphPlan {
  const indexById = new Map<string, number>();
  const specs = graph.nodes.map((node, index) => {
    if (indexById.has(node.id)) throw refused("DUPLICATE_NODE_ID", `node id "${node.id}" appears more than once`, [node.id]);
    indexById.set(node.id, index);
    return registry.require(node.type);
  });
  for (const edge of graph.edges) {
    const missing = [edge.source, edge.target].find((id) => !indexById.has(id));
    if (missing !== undefined) throw refused("EDGE_UNKNOWN_NODE", `edge "${edge.id}" refers to node "${missing}", which does not exist`, [missing], [edge.id]);
  }
  const index = indexGraph(graph);
  const cycle = findCycles(index)[0];
  if (cycle) {
    const stuck = cycle.nodes.map((node) => node.id);
    throw refused("CYCLE", `the graph has a cycle through ${stuck.length} node(s): ${stuck.slice(0, 10).join(", ")}`, stuck);
  }
  const analysis = analyzeGraph(graph, index, registry);
  const loopAnalysis = analyzeLoops(graph, analysis, registry);
  const loopProblem = loopAnalysis.violations.find((violation) => violation.code !== "LOOP_BOUND_INVALID" && violation.code !== "INPUT_HAS_PRE");
  if (loopProblem) throw refused(loopProblem.code, loopProblem.message, loopProblem.nodeIds, loopProblem.edgeIds);
  const loops = planLoops(loopAnalysis.loops, graph);
  const loopChain = chains(graph.nodes.length, loopAnalysis.innermost, loops, loopAnalysis.loops);
  const edges = planEdges(graph, indexById, loopChain);
  const inEdges: number[][] = graph.nodes.map(() => []);
  const outEdges: number[][] = graph.nodes.map(() => []);
  edges.forEach((edge, k) => {
    inEdges[edge.target]!.push(k);
    outEdges[edge.source]!.push(k);
  });
  const loopEdgesOut = graph.nodes.map(() => new Map<string, PlannedLoop>());
  const connectedPorts = graph.nodes.map(() => new Set<string>());
  for (const edge of edges) connectedPorts[edge.source]!.add(edge.port);
  for (const loop of loops) {
    for (const edge of loop.edges) {
      loopEdgesOut[edge.source]!.set(edge.port, loop);
      connectedPorts[edge.source]!.add(edge.port);
    }
  }
  const sources = inEdges.flatMap((list, k) => (list.length === 0 ? [k] : []));
  return {
    nodes: graph.nodes,
    specs,
    indexById,
    edges,
    inEdges,
    outEdges,
    loopEdgesOut,
    connectedPorts,
    sources,
    resultNode: specs.findIndex((spec) => spec.outDegree.max === 0),
    entryNode: specs.findIndex((spec) => spec.inDegree.max === 0),
    loops,
    loopChain,
    rank: topologicalRank(graph.nodes.length, analysis, sources),
    expressions: compileAll(graph.nodes, specs, inItemScope),
    bodies: graph.nodes.map((node, k) => planBody(node, specs[k]!, registry, inItemScope)),
  };
}

function planLoops(analyzed: readonly AnalyzedLoop[], graph: WorkflowGraph): PlannedLoop[] {
  const planned = new Map<AnalyzedLoop, PlannedLoop>();
  const ordered = largestFirst(analyzed);
  const position = new Map(graph.nodes.map((node, k) => [node.id, k]));
  ordered.forEach((loop, index) => {
    const parent = loop.parent ? planned.get(loop.parent)! : null;
    planned.set(loop, {
      id: loop.id,
      index,
      max: loop.max,
      exit: loop.exit,
      header: loop.header,
      body: loop.body,
      parent,
      depth: parent ? parent.depth + 1 : 0,
      nested: [],
      edges: loop.edges.map((edge) => ({ id: edge.id, source: position.get(edge.source)!, port: edge.sourcePort ?? DEFAULT_PORT })),
    });
  });
  const result = [...planned.values()];
  for (const loop of result) for (let outer = loop.parent; outer; outer = outer.parent) outer.nested.push(loop);
  return result;
}

/** Per node: its loops, outermost first, from the innermost one and the parent links. O(V × nesting depth). */
function chains(size: number, innermost: readonly (AnalyzedLoop | null)[], planned: readonly PlannedLoop[], analyzed: readonly AnalyzedLoop[]): PlannedLoop[][] {
  const byAnalyzed = new Map<AnalyzedLoop, PlannedLoop>();
  const sorted = largestFirst(analyzed);
  sorted.forEach((loop, k) => byAnalyzed.set(loop, planned[k]!));
  const result: PlannedLoop[][] = [];
  for (let node = 0; node < size; node += 1) {
    const chain: PlannedLoop[] = [];
    for (let loop = innermost[node] ? byAnalyzed.get(innermost[node]!) ?? null : null; loop; loop = loop.parent) chain.push(loop);
    result.push(chain.reverse());
  }
  return result;
}

/** Whether a node lies in a loop's body: the loop is on the node's chain. */
export function inLoop(chain: readonly PlannedLoop[], loop: PlannedLoop): boolean {
  return chain[loop.depth] === loop;
}

function planEdges(graph: WorkflowGraph, indexById: ReadonlyMap<string, number>, loopChain: readonly (readonly PlannedLoop[])[]): PlannedEdge[] {
  return graph.edges
    .filter((edge) => edge.loop === undefined)
    .map((edge) => {
      const source = indexById.get(edge.source)!;
      const target = indexById.get(edge.target)!;
      // The outermost loop holding the source but not the target: the edge waits for that loop to end.
      const heldBy = loopChain[source]!.find((loop) => !inLoop(loopChain[target]!, loop)) ?? null;
      return { id: edge.id, source, target, port: edge.sourcePort ?? DEFAULT_PORT, heldBy };
    });
}

/** Longest-path rank from the sources (Kahn): a writer after another on a data path ranks higher. */
function topologicalRank(size: number, analysis: GraphAnalysis, sources: readonly number[]): Int32Array {
  const { outStart, succNode } = analysis;
  const rank = new Int32Array(size);
  const remaining = new Int32Array(size);
  for (const next of succNode) remaining[next]! += 1;
  const queue = [...sources];
  for (let head = 0; head < queue.length; head += 1) {
    const node = queue[head]!;
    for (let slot = outStart[node]!; slot < outStart[node + 1]!; slot += 1) {
      const next = succNode[slot]!;
      rank[next] = Math.max(rank[next]!, rank[node]! + 1);
      remaining[next]! -= 1;
      if (remaining[next] === 0) queue.push(next);
    }
  }
  return rank;
}

function compileAll(nodes: readonly WorkflowNode[], specs: readonly NodeTypeDefinition[], inItemScope: boolean): Map<string, CompiledExpression>[] {
  return nodes.map((node, k) => {
    const compiled = new Map<string, CompiledExpression>();
    for (const expression of specs[k]!.expressions?.(node) ?? []) {
      const result = compileExpression(expression.source, inItemScope ? "body" : "graph");
      if (!result.ok) {
        throw refused("EXPRESSION_INVALID", `${expression.field} of node "${node.id}" does not compile: ${result.message}`, [node.id]);
      }
      compiled.set(expression.field, result.evaluate);
    }
    return compiled;
  });
}

function planBody(node: WorkflowNode, spec: NodeTypeDefinition, registry: NodeTypeRegistry, inItemScope: boolean): GraphPlan | null {
  if (!spec.body) return null;
  const body = spec.body.graph(node);
  if (!body) throw refused("MAP_BODY_INVALID", `node "${node.id}" has no body graph`, [node.id]);
  const plan = planGraph(body, registry, inItemScope || spec.body.itemScope);
  if (plan.entryNode === -1 || plan.resultNode === -1) throw refused("MAP_BODY_INVALID", `the body of node "${node.id}" needs an input node and an output node`, [node.id]);
  return plan;
}

function refused(code: string, message: string, nodeIds: string[] = [], edgeIds: string[] = []): WeftError {
  return new WeftError(code, message, { details: { nodeIds, edgeIds } });
}
