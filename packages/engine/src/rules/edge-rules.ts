import type { Violation } from "../model/violation.js";
import type { WorkflowEdge } from "../model/workflow.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import type { GraphIndex } from "./graph-index.js";
import { checkTypePair } from "./pair-rule.js";
import { describeNode, quoteList } from "./rule-messages.js";

/** Per-edge rules of the whole graph: SELF_LOOP, DUPLICATE_EDGE (one per node pair), TYPE_PAIR_FORBIDDEN. O(E). */
export function checkEdges(index: GraphIndex, edges: readonly WorkflowEdge[], registry: NodeTypeRegistry): Violation[] {
  const violations: Violation[] = [];
  const byPair = new Map<string, WorkflowEdge[]>();
  for (const edge of edges) {
    const source = index.nodes.get(edge.source);
    const target = index.nodes.get(edge.target);
    if (!source || !target) continue;
    if (edge.source === edge.target) {
      const message = `edge "${edge.id}" connects ${describeNode(registry, source)} to itself`;
      violations.push({ code: "SELF_LOOP", message, nodeIds: [source.id], edgeIds: [edge.id] });
      continue;
    }
    // JSON of the pair: no separator character can be forged by an id.
    const key = JSON.stringify([edge.source, edge.target]);
    const same = byPair.get(key);
    if (same) {
      same.push(edge);
      continue;
    }
    byPair.set(key, [edge]);
    const pair = checkTypePair(registry, source, target, [edge.id]);
    if (pair) violations.push(pair);
  }
  for (const same of byPair.values()) {
    if (same.length < 2) continue;
    const first = same[0] as WorkflowEdge;
    const source = index.nodes.get(first.source);
    const target = index.nodes.get(first.target);
    if (!source || !target) continue;
    const ids = same.map((edge) => edge.id);
    const message = `${describeNode(registry, source)} is connected to ${describeNode(registry, target)} more than once (edges ${quoteList(ids)})`;
    violations.push({ code: "DUPLICATE_EDGE", message, nodeIds: [source.id, target.id], edgeIds: ids });
  }
  return violations;
}
