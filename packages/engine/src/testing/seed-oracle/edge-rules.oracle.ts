/**
 * TEST-ONLY ORACLE, not exported: the seed-000 edge rules as it stood before the SPEC-V2 code paths replaced
 * it, kept verbatim apart from its imports so the v1 freeze property test (v1-freeze.test.ts) can check
 * that every v1 document yields the same violations and the same run events through the new paths.
 * Do not change its behaviour.
 */
import type { Violation } from "../../model/violation.js";
import type { WorkflowEdge } from "../../model/workflow.js";
import type { NodeTypeRegistry } from "../../registry/node-type-registry.js";
import type { GraphIndex } from "../../rules/graph-index.js";
import { checkTypePair } from "../../rules/pair-rule.js";
import { describeNode, quoteList } from "../../rules/rule-messages.js";

/** Per-edge rules of the whole graph: SELF_LOOP, DUPLICATE_EDGE (one per node pair), TYPE_PAIR_FORBIDDEN. O(V+E). */
export function checkEdges(index: GraphIndex, edges: readonly WorkflowEdge[], registry: NodeTypeRegistry): Violation[] {
  const { violations, repeats } = checkDuplicates(index, registry);
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
 * Edges between the same pair, found per source node; only nodes with several post-nodes need a look.
 * `repeats` holds every such edge but the first, so the pair is judged once.
 */
function checkDuplicates(index: GraphIndex, registry: NodeTypeRegistry): { violations: Violation[]; repeats: Set<WorkflowEdge> } {
  const violations: Violation[] = [];
  const repeats = new Set<WorkflowEdge>();
  for (const [sourceId, outgoing] of index.outgoing) {
    if (outgoing.length < 2) continue;
    const byTarget = new Map<string, WorkflowEdge[]>();
    for (const edge of outgoing) {
      const same = byTarget.get(edge.target);
      if (same) {
        same.push(edge);
        repeats.add(edge);
      } else {
        byTarget.set(edge.target, [edge]);
      }
    }
    for (const [targetId, same] of byTarget) {
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
