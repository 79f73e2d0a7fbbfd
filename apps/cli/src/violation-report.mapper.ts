import type { RunViolation, WorkflowEdge, WorkflowGraph } from "@weft/engine";

export interface ReportedViolation {
  code: string;
  message: string;
  nodeIds: string[];
  edges: { id: string; source: string; target: string; sourcePort?: string; loop?: string }[];
  /** Inside a map or subgraph body: the enclosing body nodes' ids, outermost first. */
  path?: string[];
  /** The field the violation is about (`cases[0].when`, `loops[1].max`). */
  field?: string;
  /** EXPRESSION_INVALID: 0-based offset of the error in the expression. */
  position?: number;
}

/** Violations with their edges spelt out, so a reader of the output needs no second look at the file. */
export function toReportedViolations(graph: WorkflowGraph, violations: readonly RunViolation[]): ReportedViolation[] {
  return violations.map((violation) => {
    const edges = new Map(graphAt(graph, violation.path ?? []).edges.map((edge) => [edge.id, edge]));
    return {
      code: violation.code,
      message: violation.message,
      nodeIds: violation.nodeIds,
      edges: violation.edgeIds.flatMap((id) => {
        const edge = edges.get(id);
        return edge ? [reportedEdge(edge)] : [];
      }),
      ...(violation.path ? { path: violation.path } : {}),
      ...(violation.field !== undefined ? { field: violation.field } : {}),
      ...(violation.position !== undefined ? { position: violation.position } : {}),
    };
  });
}

function reportedEdge(edge: WorkflowEdge): ReportedViolation["edges"][number] {
  return {
    id: edge.id,
    source: edge.source,
    target: edge.target,
    ...(edge.sourcePort !== undefined ? { sourcePort: edge.sourcePort } : {}),
    ...(edge.loop !== undefined ? { loop: edge.loop } : {}),
  };
}

/** The body graph a violation's path leads to (the top level for an empty path). */
function graphAt(graph: WorkflowGraph, path: readonly string[]): WorkflowGraph {
  let current = graph;
  for (const id of path) {
    const body = current.nodes.find((node) => node.id === id)?.config?.body as unknown as WorkflowGraph | undefined;
    if (!body?.edges) return { nodes: [], edges: [] };
    current = body;
  }
  return current;
}
