import type { Violation } from "../model/violation.js";
import type { StateChannel, WorkflowGraph, WorkflowNode } from "../model/workflow.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import type { NodeTypeDefinition } from "../registry/node-type-definition.js";
import { checkCounts } from "./count-rules.js";
import { checkDegrees } from "./degree-rules.js";
import { checkEdges } from "./edge-rules.js";
import { checkExpressions } from "./expression-rules.js";
import { checkPatterns } from "./pattern-rules.js";
import { checkNodeConfigRules } from "./node-config-rules.js";
import { findCycles } from "./find-cycles.js";
import { analyzeGraph, hasCycle } from "./graph-analysis.js";
import { indexGraph, type GraphIndex } from "./graph-index.js";
import { analyzeLoops, type AnalyzedLoop } from "./loop-analysis.js";
import { checkModels, type AvailableModel } from "./model-rules.js";
import { checkPorts } from "./port-rules.js";
import { describeNode, describePath, plural, quoteList } from "./rule-messages.js";
import { checkChannels, checkWriteConflicts, type ChannelWriter } from "./state-rules.js";

export interface GraphCheckContext {
  registry: NodeTypeRegistry;
  models: readonly AvailableModel[] | undefined;
  state: Readonly<Record<string, StateChannel>>;
  /** Inside a map body (at any depth): expressions may use `item` and `index`. */
  inItemScope: boolean;
  /** A body graph: its input/output counts are MAP_BODY_INVALID's business, not the count rules'. */
  isBody: boolean;
}

export interface GraphCheck {
  violations: Violation[];
  /** Worst-case node invocations of one run of this graph, bodies included. */
  invocations: number;
  /** Channels this graph writes (through its bodies too), and whether one write may overlap another. */
  writes: Map<string, { parallel: boolean }>;
  /** Nodes counted, bodies included. */
  nodeCount: number;
}

/**
 * Every rule over one graph, then over each body with the body's path on its violations. The order of
 * the seed-000 rules is kept (types, edges, degrees, cycles, counts, models) so a v1 graph reports
 * exactly what it did; the SPEC-V2 rules find nothing in a v1 graph. Near-linear: one index, one
 * dominator tree, loop bodies in O(Σ|body|), write conflicts per pair of writers of one channel.
 */
export function checkGraph(graph: WorkflowGraph, context: GraphCheckContext): GraphCheck {
  const { registry } = context;
  const index = indexGraph(graph);
  const analysis = analyzeGraph(graph, index, registry);
  const violations: Violation[] = checkKnownTypes(index, registry);
  pushAll(violations, checkEdges(index, registry));
  pushAll(violations, checkPorts(analysis, registry));
  pushAll(violations, checkDegrees(index, registry));
  if (hasCycle(analysis)) pushAll(violations, checkAcyclic(index, registry));
  const loops = analyzeLoops(graph, analysis, registry);
  pushAll(violations, loops.violations);
  if (!context.isBody) pushAll(violations, checkCounts(graph.nodes, registry));
  pushAll(violations, checkChannels(graph.nodes, registry, context.state));
  pushAll(violations, checkExpressions(graph.nodes, registry, context.inItemScope ? "body" : "graph"));
  pushAll(violations, checkPatterns(graph.nodes, registry, context.inItemScope ? "body" : "graph"));
  pushAll(violations, checkNodeConfigRules(graph.nodes, registry));
  const bodies = checkBodies(graph.nodes, analysis.specs, context, violations);
  if (context.models) pushAll(violations, checkModels(graph.nodes, registry, context.models));
  const writers = collectWriters(graph.nodes, bodies);
  pushAll(violations, checkWriteConflicts(writers, context.state, analysis, graph.nodes, registry));
  let invocations = 0;
  for (let k = 0; k < graph.nodes.length; k += 1) invocations += loopFactor(loops.innermost[k] ?? null) * (1 + (bodies.get(k)?.invocations ?? 0));
  const writes = new Map<string, { parallel: boolean }>();
  for (const [channel, list] of writers) writes.set(channel, { parallel: list.some((writer) => writer.parallel) });
  let nodeCount = graph.nodes.length;
  for (const body of bodies.values()) nodeCount += body.nodeCount;
  return { violations, invocations, writes, nodeCount };
}

interface BodyCheck {
  invocations: number;
  writes: Map<string, { parallel: boolean }>;
  nodeCount: number;
}

/** MAP_BODY_INVALID for a missing body or one that is not one input → … → one output; then its own rules. */
function checkBodies(nodes: readonly WorkflowNode[], specs: readonly (NodeTypeDefinition | undefined)[], context: GraphCheckContext, out: Violation[]): Map<number, BodyCheck> {
  const { registry } = context;
  const bodies = new Map<number, BodyCheck>();
  nodes.forEach((node, k) => {
    const bodySpec = specs[k]?.body;
    if (!bodySpec) return;
    const graph = bodySpec.graph(node);
    const who = describeNode(registry, node);
    if (!graph) {
      out.push({ code: "MAP_BODY_INVALID", message: `${who} has no body graph`, nodeIds: [node.id], edgeIds: [], field: "body" });
      return;
    }
    const shape = bodyShapeProblem(graph, registry);
    if (shape) out.push({ code: "MAP_BODY_INVALID", message: `the body of ${who} ${shape}`, nodeIds: [node.id], edgeIds: [], field: "body" });
    const check = checkGraph(graph, { ...context, inItemScope: context.inItemScope || bodySpec.itemScope, isBody: true });
    for (const violation of check.violations) out.push({ ...violation, path: [node.id, ...(violation.path ?? [])] });
    const parallel = bodySpec.parallelRuns(node) > 1;
    const writes = new Map([...check.writes].map(([channel, write]) => [channel, { parallel: write.parallel || parallel }]));
    bodies.set(k, { invocations: check.invocations * bodySpec.runsPerInvocation(node), writes, nodeCount: check.nodeCount });
  });
  return bodies;
}

/** A body takes one input node (a type that takes no pre-node) and gives one output node (a type that feeds nothing). */
function bodyShapeProblem(graph: WorkflowGraph, registry: NodeTypeRegistry): string | null {
  const entries = graph.nodes.filter((node) => registry.get(node.type)?.inDegree.max === 0);
  const exits = graph.nodes.filter((node) => registry.get(node.type)?.outDegree.max === 0);
  if (entries.length === 1 && exits.length === 1) return null;
  const has = (list: WorkflowNode[]) => (list.length === 0 ? "none" : quoteList(list.map((node) => node.id)));
  return `must have exactly one input node and one output node; it has ${plural(entries.length, "input")} (${has(entries)}) and ${plural(exits.length, "output")} (${has(exits)})`;
}

function collectWriters(nodes: readonly WorkflowNode[], bodies: ReadonlyMap<number, BodyCheck>): Map<string, ChannelWriter[]> {
  const writers = new Map<string, ChannelWriter[]>();
  const add = (channel: string, writer: ChannelWriter) => {
    const list = writers.get(channel);
    if (list) list.push(writer);
    else writers.set(channel, [writer]);
  };
  nodes.forEach((node, k) => {
    const writes = node.config?.writes;
    if (typeof writes === "string") add(writes, { node: k, parallel: false });
    for (const [channel, write] of bodies.get(k)?.writes ?? []) add(channel, { node: k, parallel: write.parallel });
  });
  return writers;
}

/** Appends without spreading: a spread of a long list as call arguments can overflow the stack. */
function pushAll(target: Violation[], items: readonly Violation[]): void {
  for (const item of items) target.push(item);
}

function loopFactor(loop: AnalyzedLoop | null): number {
  let factor = 1;
  for (let current = loop; current; current = current.parent) factor *= current.max;
  return factor;
}

export function checkKnownTypes(index: GraphIndex, registry: NodeTypeRegistry): Violation[] {
  const violations: Violation[] = [];
  for (const node of index.nodeList) {
    if (registry.has(node.type)) continue;
    const known = registry.types().join(", ");
    const message = `node "${node.id}" has unknown type "${node.type}" (known types: ${known})`;
    violations.push({ code: "UNKNOWN_NODE_TYPE", message, nodeIds: [node.id], edgeIds: [] });
  }
  return violations;
}

const MAX_PATH_IN_MESSAGE = 12;

export function checkAcyclic(index: GraphIndex, registry: NodeTypeRegistry): Violation[] {
  return findCycles(index).map((cycle) => {
    const shown = cycle.nodes.slice(0, MAX_PATH_IN_MESSAGE);
    const closing = cycle.nodes.length > MAX_PATH_IN_MESSAGE ? [] : cycle.nodes.slice(0, 1);
    const more = cycle.nodes.length > MAX_PATH_IN_MESSAGE ? ` → … (${cycle.nodes.length} nodes in all)` : "";
    return {
      code: "CYCLE" as const,
      message: `these nodes form a cycle: ${describePath(registry, [...shown, ...closing])}${more}`,
      nodeIds: cycle.nodes.map((node) => node.id),
      edgeIds: cycle.edges.map((edge) => edge.id),
    };
  });
}
