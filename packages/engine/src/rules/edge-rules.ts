import type { Violation } from "../model/violation.js";
import type { WorkflowEdge } from "../model/workflow.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import type { GraphIndex } from "./graph-index.js";
import { checkTypePair } from "./pair-rule.js";
import { describeNode, quoteList } from "./rule-messages.js";

/** Per-edge rules of the whole graph: SELF_LOOP, DUPLICATE_EDGE (one per node pair), TYPE_PAIR_FORBIDDEN. O(V+E). */
export function checkEdges(index: GraphIndex, edges: readonly WorkflowEdge[], registry: NodeTypeRegistry): Violation[] {
  const { violations, repeats } = checkDuplicates(index, edges, registry);
  for (const edge of edges) {
    const source = index.nodes.get(edge.source);
    const target = index.nodes.get(edge.target);
    if (!source || !target || repeats.has(edge)) continue;
    if (edge.source === edge.target) {
      const message = `edge "${edge.id}" connects ${describeNode(registry, source)} to itself`;
      violations.push({ code: "SELF_LOOP", message, nodeIds: [source.id], edgeIds: [edge.id] });
      continue;
    }
    const pair = checkTypePair(registry, source, target, [edge.id]);
    if (pair) violations.push(pair);
  }
  return violations;
}

/**
 * Edges between the same pair, from the same port and of the same kind (data or loop edge), found per
 * source node; only nodes with several post-nodes need a look. `repeats` holds every such edge but the
 * first, so the pair is judged once. Two edges from different router ports to one node are not
 * duplicates: either branch leads there.
 */
function checkDuplicates(
  index: GraphIndex,
  edges: readonly WorkflowEdge[],
  registry: NodeTypeRegistry,
): { violations: Violation[]; repeats: Set<WorkflowEdge> } {
  const violations: Violation[] = [];
  const repeats = new Set<WorkflowEdge>();
  const bySource = new Map<string, WorkflowEdge[]>();
  for (const edge of edges) {
    const list = bySource.get(edge.source);
    if (list) list.push(edge);
    else bySource.set(edge.source, [edge]);
  }
  for (const [sourceId, outgoing] of bySource) {
    if (outgoing.length < 2) continue;
    const byTarget = new Map<string, WorkflowEdge[]>();
    for (const edge of outgoing) {
      const key = `${edge.target}\u0000${edge.sourcePort ?? "out"}\u0000${edge.loop === undefined ? "" : "loop"}`;
      const same = byTarget.get(key);
      if (same) {
        same.push(edge);
        repeats.add(edge);
      } else {
        byTarget.set(key, [edge]);
      }
    }
    for (const same of byTarget.values()) {
      const targetId = same[0]!.target;
      if (same.length < 2 || sourceId === targetId) continue;
      const source = index.nodes.get(sourceId);
      const target = index.nodes.get(targetId);
      if (!source || !target) continue;
      const ids = same.map((edge) => edge.id);
      const message = `${describeNode(registry, source)} is connected to ${describeNode(registry, target)} more than once (edges ${quoteList(ids)})`;
      violations.push({ code: "DUPLICATE_EDGE", message, nodeIds: [sourceId, targetId], edgeIds: ids });
    }
  }
  return { violations, repeats };
}
