import type { WorkflowEdge, WorkflowGraph, WorkflowNode } from "../model/workflow.js";

const TYPE_BY_PREFIX: Record<string, string> = {
  i: "input",
  g: "generation",
  e: "ensemble",
  v: "validation",
  o: "output",
};

/**
 * Builds a graph from arrows: `graph("i1->g1->o1", "x9")`. A node's type comes from its id's letters
 * (i input, g generation, e ensemble, v validation, o output; anything else is used as the type
 * itself); a name without an arrow is a lone node. Edge ids are the arrows, `"i1->g1"`, numbered
 * `"i1->g1#2"` when repeated. Model nodes use the offline provider's echo model.
 */
export function graph(...specs: string[]): WorkflowGraph {
  const nodes = new Map<string, WorkflowNode>();
  const edges: WorkflowEdge[] = [];
  const addNode = (id: string) => {
    if (!nodes.has(id)) nodes.set(id, node(id));
  };
  for (const spec of specs) {
    const ids = spec.split("->").map((part) => part.trim());
    ids.forEach(addNode);
    for (let k = 0; k + 1 < ids.length; k += 1) {
      const source = ids[k] as string;
      const target = ids[k + 1] as string;
      const base = `${source}->${target}`;
      const repeats = edges.filter((edge) => edge.source === source && edge.target === target).length;
      edges.push({ id: repeats === 0 ? base : `${base}#${repeats + 1}`, source, target });
    }
  }
  return { nodes: [...nodes.values()], edges };
}

export function node(id: string): WorkflowNode {
  const prefix = /^[a-z]+/i.exec(id)?.[0] ?? id;
  const type = TYPE_BY_PREFIX[prefix] ?? prefix;
  if (type === "input" || type === "output") return { id, type, content: "" };
  return { id, type, provider: "offline", model: "echo" };
}
