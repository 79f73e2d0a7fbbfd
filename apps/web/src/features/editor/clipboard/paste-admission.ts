import { checkAddEdge, checkAddNode, type LoopDeclaration, type Violation, type WorkflowNode } from "@weft/engine";
import type { EdgeKey } from "../history/edit-history";
import { EDIT_REGISTRY, type ValidatedGraph } from "../rules/edit-registry";
import type { PastedGraph } from "./graph-clipboard";

/** A part of a paste the rules refuse here, with the graph it was checked against (to name its nodes). */
export interface PasteRefusal {
  violation: Violation;
  graph: ValidatedGraph;
}

export interface AdmittedPaste {
  nodes: WorkflowNode[];
  /** Data edges first, then loop edges. */
  edges: EdgeKey[];
  /** The pasted loops that keep at least one loop edge; each is declared with its first one. */
  loops: LoopDeclaration[];
  refusals: PasteRefusal[];
}

/**
 * What of a paste the edit rules allow on this graph, checked as the server will add it: the nodes one
 * by one (a second output node is refused), then the data edges between the nodes kept, then the loop
 * edges with their loops declared. What is refused is left out (a node with its edges) and reported.
 */
export function admitPaste(graph: ValidatedGraph, pasted: PastedGraph, locked: boolean): AdmittedPaste {
  let growing: ValidatedGraph = graph;
  const refusals: PasteRefusal[] = [];
  const nodes: WorkflowNode[] = [];
  for (const node of pasted.nodes) {
    const refusal = checkAddNode(growing, node.type, { registry: EDIT_REGISTRY, locked })[0];
    if (refusal) {
      refusals.push({ violation: refusal, graph: growing });
      continue;
    }
    nodes.push(node);
    growing = { ...growing, nodes: [...growing.nodes, node] };
  }
  const kept = new Set(nodes.map((node) => node.id));
  const candidates = pasted.edges.filter((edge) => kept.has(edge.source) && kept.has(edge.target));
  const declarations = new Map(pasted.loops.map((loop) => [loop.id, loop]));
  const edges: EdgeKey[] = [];
  const loops: LoopDeclaration[] = [];
  const ordered = [...candidates.filter((edge) => !edge.loop), ...candidates.filter((edge) => edge.loop)];
  for (const [index, edge] of ordered.entries()) {
    const declaring = edge.loop && !loops.some((loop) => loop.id === edge.loop) ? declarations.get(edge.loop) : undefined;
    const checked: ValidatedGraph = declaring ? { ...growing, loops: [...(growing.loops ?? []), declaring] } : growing;
    const refusal = checkAddEdge(checked, edge.source, edge.target, {
      registry: EDIT_REGISTRY,
      locked,
      ...(edge.sourcePort ? { sourcePort: edge.sourcePort } : {}),
      ...(edge.loop ? { loop: edge.loop } : {}),
    })[0];
    if (refusal) {
      refusals.push({ violation: refusal, graph: checked });
      continue;
    }
    edges.push(edge);
    if (declaring) loops.push(declaring);
    growing = { ...checked, edges: [...checked.edges, { id: `pasted-${index}`, ...edge }] };
  }
  return { nodes, edges, loops, refusals };
}
