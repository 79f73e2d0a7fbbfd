import type { RuleCode, Violation } from "../model/violation.js";
import { DEFAULT_PORT, type WorkflowEdge, type WorkflowNode } from "../model/workflow.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import type { Bounds, NodeTypeDefinition } from "../registry/node-type-definition.js";
import { edgesInto, edgesOutOf, type GraphIndex } from "./graph-index.js";
import { describeNode, plural, quoteList } from "./rule-messages.js";

/** One side of a node (its pre-nodes or its post-nodes), with that side's codes and wording. */
interface Side {
  bounds(spec: NodeTypeDefinition): Bounds;
  edges(index: GraphIndex, nodeId: string): readonly WorkflowEdge[];
  /** The node at the other end of an edge on this side. */
  neighbour(edge: WorkflowEdge): string;
  codes: { none: RuleCode; tooMany: RuleCode; tooFew: RuleCode };
  noun: string;
  /** "takes" (pre-nodes), "feeds" (post-nodes). */
  verb: string;
  /** "is fed by", "feeds". */
  linked: string;
  /** What is said of a node with too few neighbours on this side. */
  tooFew(neighbours: readonly string[]): string;
}

export const PRE_SIDE: Side = {
  bounds: (spec) => spec.inDegree,
  edges: edgesInto,
  neighbour: (edge) => edge.source,
  codes: { none: "INPUT_HAS_PRE", tooMany: "MULTIPLE_PRE", tooFew: "MISSING_PRE" },
  noun: "pre-node",
  verb: "takes",
  linked: "is fed by",
  tooFew: (neighbours) => `it has ${neighbours.length === 0 ? "none" : quoteList(neighbours)}`,
};

export const POST_SIDE: Side = {
  bounds: (spec) => spec.outDegree,
  edges: edgesOutOf,
  neighbour: (edge) => edge.target,
  codes: { none: "OUTPUT_HAS_POST", tooMany: "MULTIPLE_POST", tooFew: "MISSING_POST" },
  noun: "post-node",
  verb: "feeds",
  linked: "feeds",
  tooFew: () => "its output goes nowhere",
};

/**
 * Degree rules of the whole graph, one violation per node and side, in O(V+E). A node's degree counts
 * its distinct other neighbours: a self-loop and the repeats of a duplicate edge are reported as
 * SELF_LOOP and DUPLICATE_EDGE and nothing else (root causes only). A type whose limit is 0 on a side
 * takes no neighbour there at all, which is INPUT_HAS_PRE / OUTPUT_HAS_POST rather than "too many".
 */
export function checkDegrees(index: GraphIndex, registry: NodeTypeRegistry): Violation[] {
  const violations: Violation[] = [];
  const { nodeList, inStart, inEdge, outStart, outEdge, edgeSource, edgeTarget } = index;
  for (let k = 0; k < nodeList.length; k += 1) {
    const node = nodeList[k]!;
    const spec = registry.get(node.type);
    if (!spec) continue;
    const into = countedDegree(index, inEdge, inStart[k]!, inStart[k + 1]!, edgeSource, k);
    if (into < spec.inDegree.min || into > spec.inDegree.max) {
      const violation = checkSide(node, spec, PRE_SIDE, countedEdges(PRE_SIDE, PRE_SIDE.edges(index, node.id), node.id), registry);
      if (violation) violations.push(violation);
    }
    const outOf = countedDegree(index, outEdge, outStart[k]!, outStart[k + 1]!, edgeTarget, k);
    if (outOf < spec.outDegree.min || outOf > spec.outDegree.max) {
      const violation = checkSide(node, spec, POST_SIDE, countedEdges(POST_SIDE, POST_SIDE.edges(index, node.id), node.id), registry);
      if (violation) violations.push(violation);
    }
  }
  return violations;
}

/** Rows longer than this count their distinct neighbours with a set rather than pair by pair. */
const PAIRWISE_LIMIT = 16;

/**
 * `countedEdges(...).length` for the row `edges[from .. to)` of node k without building it: distinct
 * (neighbour, source port) pairs other than k itself. Only a node that breaks its bounds gets the list
 * (and the message) built, so a valid graph allocates nothing here.
 */
function countedDegree(index: GraphIndex, edges: Int32Array, from: number, to: number, neighbourOf: Int32Array, k: number): number {
  const size = to - from;
  if (size === 1) return neighbourOf[edges[from]!] === k ? 0 : 1;
  if (size > PAIRWISE_LIMIT) {
    const seen = new Set<string>();
    for (let slot = from; slot < to; slot += 1) {
      const e = edges[slot]!;
      if (neighbourOf[e] !== k) seen.add(`${neighbourOf[e]}\u0000${index.edgeList[e]!.sourcePort ?? DEFAULT_PORT}`);
    }
    return seen.size;
  }
  let count = 0;
  for (let slot = from; slot < to; slot += 1) {
    const e = edges[slot]!;
    const neighbour = neighbourOf[e]!;
    if (neighbour === k) continue;
    const port = index.edgeList[e]!.sourcePort ?? DEFAULT_PORT;
    let repeat = false;
    for (let earlier = from; earlier < slot && !repeat; earlier += 1) {
      const other = edges[earlier]!;
      repeat = neighbourOf[other] === neighbour && (index.edgeList[other]!.sourcePort ?? DEFAULT_PORT) === port;
    }
    if (!repeat) count += 1;
  }
  return count;
}

/**
 * The edges a degree counts (data edges only): self-loops left out, and of the repeats of a duplicate
 * edge (same neighbour, same source port) only the first. Edges from two ports of one router to the same
 * node are not duplicates and both count.
 */
export function countedEdges(side: Side, edges: readonly WorkflowEdge[], nodeId: string): WorkflowEdge[] {
  const seen = new Set<string>();
  return edges.filter((edge) => {
    const neighbour = side.neighbour(edge);
    const key = `${neighbour}\u0000${edge.sourcePort ?? DEFAULT_PORT}`;
    if (neighbour === nodeId || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function checkSide(
  node: WorkflowNode,
  spec: NodeTypeDefinition,
  side: Side,
  edges: readonly WorkflowEdge[],
  registry: NodeTypeRegistry,
): Violation | null {
  const bounds = side.bounds(spec);
  if (edges.length >= bounds.min && edges.length <= bounds.max) return null;
  const who = describeNode(registry, node);
  const neighbours = edges.map(side.neighbour);
  const involved = (code: RuleCode, message: string): Violation => ({
    code,
    message,
    nodeIds: [node.id, ...neighbours],
    edgeIds: edges.map((edge) => edge.id),
  });
  const verb = side.verb;
  if (bounds.max === 0) {
    return involved(side.codes.none, `${who} ${verb} no ${side.noun}, but ${side.linked} ${quoteList(neighbours)}`);
  }
  if (edges.length > bounds.max) {
    return involved(side.codes.tooMany, `${who} ${verb} at most ${plural(bounds.max, side.noun)}, but ${side.linked} ${quoteList(neighbours)}`);
  }
  return involved(side.codes.tooFew, `${who} needs at least ${plural(bounds.min, side.noun)}; ${side.tooFew(neighbours)}`);
}
