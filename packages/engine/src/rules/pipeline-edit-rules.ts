import type { Violation } from "../model/violation.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import { RULE_TIMING } from "./rule-timing.js";
import { validateWorkflow, type ValidatedGraph } from "./validate-workflow.js";

/** The id a would-be edge has while the rules look at the graph it would make. */
export const NEW_EDGE_ID = "\u2063new-edge";

/**
 * The edit-time violations an edit would add (SPEC-V2 §5 per edit): the edit-time rules over the graph
 * after the edit, minus those the graph already broke before it, so an edit is refused only for what
 * it breaks. Two whole-graph checks, O(V+E) each (expressions are compiled once and cached).
 */
export function newEditViolations(before: ValidatedGraph, after: ValidatedGraph, registry: NodeTypeRegistry): Violation[] {
  const existing = new Set(editTimed(before, registry).map(violationKey));
  return editTimed(after, registry)
    .filter((violation) => !existing.has(violationKey(violation)))
    .map((violation) => ({ ...violation, edgeIds: violation.edgeIds.filter((id) => id !== NEW_EDGE_ID) }));
}

function editTimed(graph: ValidatedGraph, registry: NodeTypeRegistry): Violation[] {
  return validateWorkflow(graph, { registry }).filter((violation) => RULE_TIMING[violation.code].edit);
}

function violationKey(violation: Violation): string {
  const ids = (list: readonly string[]) => [...list].sort().join(",");
  return [violation.code, (violation.path ?? []).join("/"), violation.field ?? "", ids(violation.nodeIds), ids(violation.edgeIds)].join("|");
}

/** Whether a graph (or the edit about to be made) uses anything beyond seed-000: then the v2 rules are consulted. */
export function usesPipelineFeatures(graph: ValidatedGraph, registry: NodeTypeRegistry): boolean {
  if (graph.loops !== undefined || graph.state !== undefined || graph.limits !== undefined) return true;
  if (graph.edges.some((edge) => edge.sourcePort !== undefined || edge.loop !== undefined)) return true;
  return graph.nodes.some((node) => node.config !== undefined || (registry.has(node.type) && !registry.isSeedType(node.type)));
}
