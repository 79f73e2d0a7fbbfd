import type { Violation, WorkflowGraph } from "@weft/engine";

export interface ReportedViolation {
  code: string;
  message: string;
  nodeIds: string[];
  edges: { id: string; source: string; target: string }[];
}

/** Violations with their edges spelt out, so a reader of the output needs no second look at the file. */
export function toReportedViolations(graph: WorkflowGraph, violations: readonly Violation[]): ReportedViolation[] {
  const edges = new Map(graph.edges.map((edge) => [edge.id, edge]));
  return violations.map((violation) => ({
    code: violation.code,
    message: violation.message,
    nodeIds: violation.nodeIds,
    edges: violation.edgeIds.flatMap((id) => {
      const edge = edges.get(id);
      return edge ? [{ id: edge.id, source: edge.source, target: edge.target }] : [];
    }),
  }));
}
