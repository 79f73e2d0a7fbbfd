import type { Violation } from "../model/violation.js";
import { DEFAULT_PORT, type WorkflowEdge } from "../model/workflow.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import type { GraphIndex } from "./graph-index.js";
import { checkTypePair } from "./pair-rule.js";
import { describeNode, quoteList } from "./rule-messages.js";

/** Per-edge rules of the whole graph: SELF_LOOP, DUPLICATE_EDGE (one per node pair), TYPE_PAIR_FORBIDDEN. O(V+E). */
export function checkEdges(index: GraphIndex, registry: NodeTypeRegistry): Violation[] {
  const { violations, repeats } = checkDuplicates(index, registry);
  const { edgeList, nodeList, edgeSource, edgeTarget } = index;
  for (let e = 0; e < edgeList.length; e += 1) {
    if (repeats[e] === 1) continue;
    const edge = edgeList[e]!;
    const source = nodeList[edgeSource[e]!]!;
    const target = nodeList[edgeTarget[e]!]!;
    if (edgeSource[e] === edgeTarget[e]) {
      const message = `edge "${edge.id}" connects ${describeNode(registry, source)} to itself`;
      violations.push({ code: "SELF_LOOP", message, nodeIds: [source.id], edgeIds: [edge.id] });
      continue;
    }
    if (registry.allowsPair(source.type, target.type)) continue;
    const pair = checkTypePair(registry, source, target, [edge.id]);
    if (pair) violations.push(pair);
  }
  return violations;
}

/** Rows longer than this group their edges with a map rather than pair by pair. */
const PAIRWISE_LIMIT = 16;

/**
 * Edges between the same pair, from the same port and of the same kind (data or loop edge), found per
 * source node (sources in the order of their first edge); only nodes with several edges out need a
 * look. `repeats` marks every such edge but the first, so the pair is judged once. Two edges from
 * different router ports to one node are not duplicates: either branch leads there.
 */
function checkDuplicates(index: GraphIndex, registry: NodeTypeRegistry): { violations: Violation[]; repeats: Uint8Array } {
  const violations: Violation[] = [];
  const { edgeList, edgeSource, allOutStart } = index;
  const repeats = new Uint8Array(edgeList.length);
  const visited = new Uint8Array(index.ids.length);
  for (let e = 0; e < edgeList.length; e += 1) {
    const source = edgeSource[e]!;
    if (visited[source] === 1) continue;
    visited[source] = 1;
    const from = allOutStart[source]!;
    const to = allOutStart[source + 1]!;
    if (to - from < 2) continue;
    const groups = to - from > PAIRWISE_LIMIT ? groupByKey(index, from, to) : groupPairwise(index, from, to);
    for (const same of groups) {
      for (let k = 1; k < same.length; k += 1) repeats[same[k]!] = 1;
      if (same.length < 2 || index.edgeTarget[same[0]!] === source) continue;
      const sourceNode = index.nodeList[source]!;
      const targetNode = index.nodeList[index.edgeTarget[same[0]!]!]!;
      const ids = same.map((edge) => edgeList[edge]!.id);
      const message = `${describeNode(registry, sourceNode)} is connected to ${describeNode(registry, targetNode)} more than once (edges ${quoteList(ids)})`;
      violations.push({ code: "DUPLICATE_EDGE", message, nodeIds: [sourceNode.id, targetNode.id], edgeIds: ids });
    }
  }
  return { violations, repeats };
}

function sameKind(a: WorkflowEdge, b: WorkflowEdge): boolean {
  return (a.sourcePort ?? DEFAULT_PORT) === (b.sourcePort ?? DEFAULT_PORT) && (a.loop === undefined) === (b.loop === undefined);
}

/** The row's repeated edges grouped (first edge, then its repeats), groups in the order of their first edge; single edges are left out. */
function groupPairwise(index: GraphIndex, from: number, to: number): number[][] {
  const { allOutEdge, edgeTarget, edgeList } = index;
  const groups: number[][] = [];
  let leaders: number[] | null = null;
  for (let slot = from + 1; slot < to; slot += 1) {
    const e = allOutEdge[slot]!;
    for (let earlier = from; earlier < slot; earlier += 1) {
      const first = allOutEdge[earlier]!;
      if (edgeTarget[first] !== edgeTarget[e] || !sameKind(edgeList[first]!, edgeList[e]!)) continue;
      leaders ??= [];
      const at = leaders.indexOf(first);
      if (at === -1) {
        leaders.push(first);
        groups.push([first, e]);
      } else {
        groups[at]!.push(e);
      }
      break;
    }
  }
  return groups.sort((a, b) => a[0]! - b[0]!);
}

function groupByKey(index: GraphIndex, from: number, to: number): number[][] {
  const byKey = new Map<string, number[]>();
  for (let slot = from; slot < to; slot += 1) {
    const e = index.allOutEdge[slot]!;
    const edge = index.edgeList[e]!;
    const key = `${index.edgeTarget[e]}\u0000${edge.sourcePort ?? DEFAULT_PORT}\u0000${edge.loop === undefined ? "" : "loop"}`;
    const same = byKey.get(key);
    if (same) same.push(e);
    else byKey.set(key, [e]);
  }
  return [...byKey.values()];
}
