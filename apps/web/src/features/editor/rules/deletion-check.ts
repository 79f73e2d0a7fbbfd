import { checkRemoveEdge, checkRemoveNode } from "@weft/engine";
import type { NodeTypeRegistry, Violation } from "@weft/engine";
import { EDIT_REGISTRY, type ValidatedGraph } from "./edit-registry";

/**
 * Checks deleting several nodes and edges as one gesture (a keyboard Delete over a selection): each
 * removal is checked against the graph as the previous ones left it, so deleting both of two input
 * nodes is refused at the second. Returns every refusal; an empty list means the deletion may go ahead.
 */
export function checkDeletion(
  graph: ValidatedGraph,
  deletion: { nodeIds: readonly string[]; edgeIds: readonly string[] },
  options: { locked?: boolean; registry?: NodeTypeRegistry } = {},
): Violation[] {
  const registry = options.registry ?? EDIT_REGISTRY;
  const locked = options.locked ?? false;
  const violations: Violation[] = [];
  let current = graph;
  for (const edgeId of deletion.edgeIds) {
    if (!current.edges.some((edge) => edge.id === edgeId)) continue; // removed with its node
    violations.push(...checkRemoveEdge(current, edgeId, { registry, locked }));
    current = { ...current, edges: current.edges.filter((edge) => edge.id !== edgeId) };
  }
  for (const nodeId of deletion.nodeIds) {
    if (!current.nodes.some((node) => node.id === nodeId)) continue;
    violations.push(...checkRemoveNode(current, nodeId, { registry, locked }));
    current = {
      ...current,
      nodes: current.nodes.filter((node) => node.id !== nodeId),
      edges: current.edges.filter((edge) => edge.source !== nodeId && edge.target !== nodeId),
    };
  }
  return dedupeLocked(violations);
}

/** A locked workflow refuses every part of the gesture; one sentence is enough. */
function dedupeLocked(violations: Violation[]): Violation[] {
  const locked = violations.filter((violation) => violation.code === "LOCKED_WHILE_RUNNING");
  if (locked.length <= 1) return violations;
  const rest = violations.filter((violation) => violation.code !== "LOCKED_WHILE_RUNNING");
  return [locked[0] as Violation, ...rest];
}
