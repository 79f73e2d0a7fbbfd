import type { Violation } from "../model/violation.js";
import { LOOP_MAX_BOUND, type LoopDeclaration, type WorkflowEdge, type WorkflowGraph } from "../model/workflow.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import type { GraphAnalysis } from "./graph-analysis.js";
import { describeNode, quoteList } from "./rule-messages.js";

/** A declared loop that is well formed: one header, reducible, properly nested. */
export interface AnalyzedLoop {
  id: string;
  /** 1..100; 1 when the declaration's bound is invalid (LOOP_BOUND_INVALID is reported). */
  max: number;
  exit: string | null;
  header: number;
  edges: WorkflowEdge[];
  /** Every node on a data path from the header to a loop edge's source, header included, ascending. */
  body: number[];
  /** The loop whose body encloses this one, or null. */
  parent: AnalyzedLoop | null;
}

export interface LoopAnalysis {
  loops: AnalyzedLoop[];
  /** Per node: the innermost analyzed loop containing it, or null. */
  innermost: (AnalyzedLoop | null)[];
  violations: Violation[];
}

/**
 * The loops of one graph (SPEC-V2 §4–5). A loop edge must name a declared loop and leave a router port;
 * all edges of a loop go to one node, its header; the header dominates each loop edge's source (no way
 * into the body but through the header) and the body is then the reverse search from the sources that
 * stops at the header — the classic natural loop, found in O(|body| + its edges). Bodies must nest.
 */
export function analyzeLoops(graph: WorkflowGraph, analysis: GraphAnalysis, registry: NodeTypeRegistry): LoopAnalysis {
  const violations: Violation[] = [];
  const declared = new Map((graph.loops ?? []).map((loop, k) => [loop.id, { loop, k }]));
  const byLoop = new Map<string, WorkflowEdge[]>();
  for (const edge of analysis.index.loopEdges) {
    const source = analysis.index.nodes.get(edge.source)!;
    const spec = registry.get(source.type);
    if (spec && !spec.router) {
      const message = `edge "${edge.id}" of loop "${edge.loop}" leaves ${describeNode(registry, source)}, which is not a router: a loop needs a condition to end`;
      violations.push({ code: "LOOP_UNCONDITIONAL", message, nodeIds: [source.id], edgeIds: [edge.id] });
    }
    const target = analysis.index.nodes.get(edge.target)!;
    if (registry.get(target.type)?.inDegree.max === 0) {
      violations.push({ code: "INPUT_HAS_PRE", message: `${describeNode(registry, target)} takes no pre-node, not even through loop edge "${edge.id}"`, nodeIds: [target.id, source.id], edgeIds: [edge.id] });
    }
    if (!declared.has(edge.loop!)) {
      violations.push({ code: "LOOP_NOT_DECLARED", message: `edge "${edge.id}" names loop "${edge.loop}", which is not declared in loops`, nodeIds: [edge.source, edge.target], edgeIds: [edge.id] });
      continue;
    }
    const list = byLoop.get(edge.loop!);
    if (list) list.push(edge);
    else byLoop.set(edge.loop!, [edge]);
  }
  const found: AnalyzedLoop[] = [];
  const marks = new Int32Array(analysis.ids.length);
  for (const [id, { loop, k }] of declared) {
    violations.push(...checkBound(loop, k));
    const edges = byLoop.get(id);
    if (!edges) continue;
    violations.push(...checkExitPort(loop, k, edges, analysis, registry));
    const analyzed = naturalLoop(loop, edges, analysis, registry, violations, marks, k + 1);
    if (analyzed) found.push(analyzed);
  }
  const innermost = nest(found, analysis, violations);
  return { loops: found, innermost, violations };
}

function checkBound(loop: LoopDeclaration, k: number): Violation[] {
  const max = loop.max;
  if (max !== undefined && Number.isInteger(max) && max >= 1 && max <= LOOP_MAX_BOUND) return [];
  const found = max === undefined ? "it has none" : `it is ${max}`;
  const message = `loop "${loop.id}" needs a whole-number max between 1 and ${LOOP_MAX_BOUND}; ${found}`;
  return [{ code: "LOOP_BOUND_INVALID", message, nodeIds: [], edgeIds: [], field: `loops[${k}].max` }];
}

/** The exit port must be a port of every router that can take one of the loop's edges. */
function checkExitPort(loop: LoopDeclaration, k: number, edges: WorkflowEdge[], analysis: GraphAnalysis, registry: NodeTypeRegistry): Violation[] {
  if (loop.exit === null) return [];
  const violations: Violation[] = [];
  const sources = edges.length === 1 ? [edges[0]!.source] : new Set(edges.map((edge) => edge.source));
  for (const sourceId of sources) {
    const source = analysis.index.nodes.get(sourceId)!;
    if (!registry.get(source.type)?.router || registry.portsOf(source).includes(loop.exit)) continue;
    const message = `loop "${loop.id}" exits through port "${loop.exit}", which ${describeNode(registry, source)} does not have (ports: ${quoteList(registry.portsOf(source))})`;
    violations.push({ code: "PORT_UNKNOWN", message, nodeIds: [sourceId], edgeIds: edges.filter((edge) => edge.source === sourceId).map((edge) => edge.id), field: `loops[${k}].exit` });
  }
  return violations;
}

/** `marks` is shared by every loop of the graph; `mark` is this loop's own value in it (no clearing between loops). */
function naturalLoop(
  loop: LoopDeclaration,
  edges: WorkflowEdge[],
  analysis: GraphAnalysis,
  registry: NodeTypeRegistry,
  out: Violation[],
  marks: Int32Array,
  mark: number,
): AnalyzedLoop | null {
  const targets = edges.length === 1 ? [edges[0]!.target] : [...new Set(edges.map((edge) => edge.target))];
  if (targets.length > 1) {
    const message = `the edges of loop "${loop.id}" go back to ${quoteList(targets)}; all edges of one loop must go back to the same node, its header`;
    out.push({ code: "LOOP_TARGET_NOT_HEADER", message, nodeIds: targets, edgeIds: edges.map((edge) => edge.id) });
    return null;
  }
  const { dominators, position } = analysis;
  const header = position.get(targets[0]!)!;
  const sources = edges.map((edge) => position.get(edge.source)!);
  if (!dominators.reaches(header) || sources.some((source) => !dominators.reaches(source))) return null; // on a data cycle: CYCLE says so
  const escaping = edges.filter((edge) => !dominators.dominates(header, position.get(edge.source)!));
  if (escaping.length > 0) {
    const headerNode = analysis.index.nodes.get(targets[0]!)!;
    const from = quoteList(escaping.map((edge) => edge.source));
    const message = `loop "${loop.id}" goes back from ${from} to ${describeNode(registry, headerNode)}, but ${from} can be reached without passing "${headerNode.id}": a loop may only be entered through its header`;
    out.push({ code: "LOOP_NOT_REDUCIBLE", message, nodeIds: [headerNode.id, ...escaping.map((edge) => edge.source)], edgeIds: escaping.map((edge) => edge.id) });
    return null;
  }
  marks[header] = mark;
  const body = [header];
  const stack: number[] = [];
  for (const source of sources) {
    if (marks[source] === mark) continue;
    marks[source] = mark;
    body.push(source);
    stack.push(source);
  }
  while (stack.length > 0) {
    for (const pred of analysis.preds[stack.pop()!]!) {
      if (marks[pred] === mark) continue;
      marks[pred] = mark;
      body.push(pred);
      stack.push(pred);
    }
  }
  body.sort((a, b) => a - b);
  const max = Number.isInteger(loop.max) && loop.max! >= 1 && loop.max! <= LOOP_MAX_BOUND ? loop.max! : 1;
  return { id: loop.id, max, exit: loop.exit, header, edges, body, parent: null };
}

/**
 * Loop bodies must be disjoint or nested, with distinct headers. Largest first: every node of a body
 * must have had the same enclosing loop so far (its parent); then the body claims its nodes. O(Σ|body|).
 */
function nest(loops: AnalyzedLoop[], analysis: GraphAnalysis, out: Violation[]): (AnalyzedLoop | null)[] {
  const owner: (AnalyzedLoop | null)[] = analysis.ids.map(() => null);
  const headers = new Map<number, AnalyzedLoop>();
  const sorted = [...loops].sort((a, b) => b.body.length - a.body.length);
  const rejected = new Set<AnalyzedLoop>();
  for (const loop of sorted) {
    const sharing = headers.get(loop.header);
    const first = owner[loop.body[0]!]!;
    const overlapping = loop.body.some((node) => owner[node] !== first);
    if (sharing || overlapping) {
      const parents = new Set(loop.body.map((node) => owner[node]));
      const other = sharing ?? [...parents].find((parent) => parent !== null && parent !== undefined && !parent.body.includes(loop.header)) ?? [...parents].find((p) => p);
      const why = sharing ? `share the header "${analysis.ids[loop.header]}"` : "overlap without one lying inside the other";
      const message = `loops "${loop.id}" and "${other?.id ?? "?"}" ${why}; loops must be nested or apart, each with its own header`;
      out.push({ code: "LOOP_NOT_REDUCIBLE", message, nodeIds: [analysis.ids[loop.header]!], edgeIds: loop.edges.map((edge) => edge.id) });
      rejected.add(loop);
      continue;
    }
    loop.parent = first;
    headers.set(loop.header, loop);
    for (const node of loop.body) owner[node] = loop;
  }
  for (let k = loops.length - 1; k >= 0; k -= 1) if (rejected.has(loops[k]!)) loops.splice(k, 1);
  return owner;
}
