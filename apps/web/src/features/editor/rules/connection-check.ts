import { checkAddEdge, defaultRegistry } from "@weft/engine";
import type { NodeTypeRegistry, Violation, WorkflowGraph } from "@weft/engine";

export interface ConnectionAttempt {
  source: string | null;
  target: string | null;
}

/**
 * The first reason an edge source → target would be refused, or null when it is allowed. Same rules
 * and messages as the server (the engine's checkAddEdge); the server still has the last word.
 */
export function explainConnection(
  graph: WorkflowGraph,
  attempt: ConnectionAttempt,
  options: { locked?: boolean; registry?: NodeTypeRegistry } = {},
): Violation | null {
  const { source, target } = attempt;
  if (!source || !target) return null;
  const known = new Set(graph.nodes.map((node) => node.id));
  if (!known.has(source) || !known.has(target)) return null;
  const violations = checkAddEdge(graph, source, target, {
    registry: options.registry ?? defaultRegistry,
    locked: options.locked ?? false,
  });
  return violations[0] ?? null;
}
