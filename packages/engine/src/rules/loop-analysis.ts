import type { Violation } from "../model/violation.js";
import { LOOP_MAX_BOUND, type LoopDeclaration, type WorkflowEdge, type WorkflowGraph } from "../model/workflow.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import type { GraphAnalysis } from "./graph-analysis.js";
import { compressedRows } from "./graph-index.js";
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
  const declarations = graph.loops ?? [];
  const declared = new Map<string, number>();
  for (let k = 0; k < declarations.length; k += 1) declared.set(declarations[k]!.id, k);
  const { index, specs } = analysis;
  const numbers = index.loopEdgeNumbers;
  const loopOf = new Int32Array(numbers.length);
  const undeclared = new Uint8Array(numbers.length);
  for (let at = 0; at < numbers.length; at += 1) {
    const e = numbers[at]!;
    const edge = index.edgeList[e]!;
    const source = index.nodeList[index.edgeSource[e]!]!;
    const spec = specs[index.edgeSource[e]!];
    if (spec && !spec.router) {
      const message = `edge "${edge.id}" of loop "${edge.loop}" leaves ${describeNode(registry, source)}, which is not a router: a loop needs a condition to end`;
      violations.push({ code: "LOOP_UNCONDITIONAL", message, nodeIds: [source.id], edgeIds: [edge.id] });
    }
    const target = index.nodeList[index.edgeTarget[e]!]!;
    if (specs[index.edgeTarget[e]!]?.inDegree.max === 0) {
      violations.push({ code: "INPUT_HAS_PRE", message: `${describeNode(registry, target)} takes no pre-node, not even through loop edge "${edge.id}"`, nodeIds: [target.id, source.id], edgeIds: [edge.id] });
    }
    const k = declared.get(edge.loop!);
    if (k === undefined) {
      violations.push({ code: "LOOP_NOT_DECLARED", message: `edge "${edge.id}" names loop "${edge.loop}", which is not declared in loops`, nodeIds: [edge.source, edge.target], edgeIds: [edge.id] });
      undeclared[at] = 1;
      continue;
    }
    loopOf[at] = k;
  }
  // Each declared loop's edges, in creation order: rows of positions in `numbers`.
  const byLoop = compressedRows(declarations.length, loopOf, undeclared);
  const found: AnalyzedLoop[] = [];
  const work = { marks: new Int32Array(analysis.ids.length), stack: new Int32Array(analysis.ids.length) };
  for (const k of declared.values()) {
    const loop = declarations[k]!;
    const bound = checkBound(loop, k);
    if (bound) violations.push(bound);
    const from = byLoop.start[k]!;
    const to = byLoop.start[k + 1]!;
    if (from === to) continue;
    const edges: number[] = [];
    for (let slot = from; slot < to; slot += 1) edges.push(numbers[byLoop.list[slot]!]!);
    checkExitPort(loop, k, edges, analysis, registry, violations);
    const analyzed = naturalLoop(loop, edges, analysis, registry, violations, work, k + 1);
    if (analyzed) found.push(analyzed);
  }
  const innermost = nest(found, analysis, violations);
  return { loops: found, innermost, violations };
}

function checkBound(loop: LoopDeclaration, k: number): Violation | null {
  const max = loop.max;
  if (max !== undefined && Number.isInteger(max) && max >= 1 && max <= LOOP_MAX_BOUND) return null;
  const found = max === undefined ? "it has none" : `it is ${max}`;
  const message = `loop "${loop.id}" needs a whole-number max between 1 and ${LOOP_MAX_BOUND}; ${found}`;
  return { code: "LOOP_BOUND_INVALID", message, nodeIds: [], edgeIds: [], field: `loops[${k}].max` };
}

/** The exit port must be a port of every router that can take one of the loop's edges (`edges`: edge numbers). */
function checkExitPort(loop: LoopDeclaration, k: number, edges: readonly number[], analysis: GraphAnalysis, registry: NodeTypeRegistry, out: Violation[]): void {
  if (loop.exit === null) return;
  const { index } = analysis;
  const seen = edges.length === 1 ? null : new Set<number>();
  for (const e of edges) {
    const sourceNumber = index.edgeSource[e]!;
    if (seen?.has(sourceNumber)) continue;
    seen?.add(sourceNumber);
    const router = analysis.specs[sourceNumber]?.router;
    const source = index.nodeList[sourceNumber]!;
    if (!router || router.ports(source).includes(loop.exit)) continue;
    const ports = registry.portsOf(source);
    const message = `loop "${loop.id}" exits through port "${loop.exit}", which ${describeNode(registry, source)} does not have (ports: ${quoteList(ports)})`;
    const edgeIds = edges.filter((e) => index.edgeSource[e] === sourceNumber).map((e) => index.edgeList[e]!.id);
    out.push({ code: "PORT_UNKNOWN", message, nodeIds: [source.id], edgeIds, field: `loops[${k}].exit` });
  }
}

/**
 * `work.marks` is shared by every loop of the graph; `mark` is this loop's own value in it (no clearing
 * between loops). `work.stack` is scratch space for the search.
 */
function naturalLoop(
  loop: LoopDeclaration,
  edgeNumbers: readonly number[],
  analysis: GraphAnalysis,
  registry: NodeTypeRegistry,
  out: Violation[],
  work: { marks: Int32Array; stack: Int32Array },
  mark: number,
): AnalyzedLoop | null {
  const { index } = analysis;
  const edges: WorkflowEdge[] = [];
  const sources: number[] = [];
  for (const e of edgeNumbers) {
    edges.push(index.edgeList[e]!);
    sources.push(index.edgeSource[e]!);
  }
  const header = index.edgeTarget[edgeNumbers[0]!]!;
  if (edgeNumbers.some((e) => index.edgeTarget[e] !== header)) {
    const targets = [...new Set(edges.map((edge) => edge.target))];
    const message = `the edges of loop "${loop.id}" go back to ${quoteList(targets)}; all edges of one loop must go back to the same node, its header`;
    out.push({ code: "LOOP_TARGET_NOT_HEADER", message, nodeIds: targets, edgeIds: edges.map((edge) => edge.id) });
    return null;
  }
  const { dominators } = analysis;
  if (!dominators.reaches(header) || sources.some((source) => !dominators.reaches(source))) return null; // on a data cycle: CYCLE says so
  if (sources.some((source) => !dominators.dominates(header, source))) {
    const escaping = edges.filter((_edge, k) => !dominators.dominates(header, sources[k]!));
    const headerNode = index.nodeList[header]!;
    const from = quoteList(escaping.map((edge) => edge.source));
    const message = `loop "${loop.id}" goes back from ${from} to ${describeNode(registry, headerNode)}, but ${from} can be reached without passing "${headerNode.id}": a loop may only be entered through its header`;
    out.push({ code: "LOOP_NOT_REDUCIBLE", message, nodeIds: [headerNode.id, ...escaping.map((edge) => edge.source)], edgeIds: escaping.map((edge) => edge.id) });
    return null;
  }
  const { marks, stack } = work;
  marks[header] = mark;
  const body = [header];
  let depth = 0;
  for (const source of sources) {
    if (marks[source] === mark) continue;
    marks[source] = mark;
    body.push(source);
    stack[depth++] = source;
  }
  const { inStart, predNode } = analysis;
  while (depth > 0) {
    const node = stack[--depth]!;
    for (let slot = inStart[node]!; slot < inStart[node + 1]!; slot += 1) {
      const pred = predNode[slot]!;
      if (marks[pred] === mark) continue;
      marks[pred] = mark;
      body.push(pred);
      stack[depth++] = pred;
    }
  }
  sortAscending(body);
  const max = Number.isInteger(loop.max) && loop.max! >= 1 && loop.max! <= LOOP_MAX_BOUND ? loop.max! : 1;
  return { id: loop.id, max, exit: loop.exit, header, edges, body, parent: null };
}

/** Small bodies (most are) by insertion, larger ones by the built-in sort. */
function sortAscending(list: number[]): void {
  if (list.length > 16) {
    list.sort((a, b) => a - b);
    return;
  }
  for (let k = 1; k < list.length; k += 1) {
    const value = list[k]!;
    let at = k - 1;
    for (; at >= 0 && list[at]! > value; at -= 1) list[at + 1] = list[at]!;
    list[at + 1] = value;
  }
}

/**
 * Loop bodies must be disjoint or nested, with distinct headers. Largest first: every node of a body
 * must have had the same enclosing loop so far (its parent); then the body claims its nodes. O(Σ|body|).
 */
function nest(loops: AnalyzedLoop[], analysis: GraphAnalysis, out: Violation[]): (AnalyzedLoop | null)[] {
  const owner: (AnalyzedLoop | null)[] = new Array<AnalyzedLoop | null>(analysis.ids.length).fill(null);
  const headers: (AnalyzedLoop | undefined)[] = new Array<AnalyzedLoop | undefined>(analysis.ids.length);
  const rejected = new Set<AnalyzedLoop>();
  for (const loop of largestFirst(loops)) {
    const sharing = headers[loop.header];
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
    headers[loop.header] = loop;
    for (const node of loop.body) owner[node] = loop;
  }
  if (rejected.size > 0) for (let k = loops.length - 1; k >= 0; k -= 1) if (rejected.has(loops[k]!)) loops.splice(k, 1);
  return owner;
}

/** The loops by body size, largest first, in declaration order among equals (a stable counting sort, O(loops + largest body)). */
export function largestFirst<T extends { body: readonly number[] }>(loops: readonly T[]): T[] {
  let largest = 0;
  for (const loop of loops) largest = Math.max(largest, loop.body.length);
  const start = new Int32Array(largest + 2);
  for (const loop of loops) start[largest - loop.body.length + 1]! += 1;
  for (let size = 0; size <= largest; size += 1) start[size + 1]! += start[size]!;
  const sorted = new Array<T>(loops.length);
  for (const loop of loops) sorted[start[largest - loop.body.length]!++] = loop;
  return sorted;
}
