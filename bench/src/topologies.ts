import type { Workflow, WorkflowEdge, WorkflowNode } from "@weft/engine";

export type Topology = "chain" | "fan-out";

export const PROMPTS = {
  generation: "Answer: {input_data}\nFormat: {output_format}",
  validation: "Check: {input_data}\nFormat: {output_format}",
  ensemble: "Merge: {input_data}\nFormat: {output_format}",
};

/**
 * Graphs of exactly `size` nodes that obey the connection rules.
 * chain:   input → generation → validation × (size − 3) → output
 * fan-out: input → generation × (size − 3) → ensemble → output
 */
export function buildTopology(topology: Topology, size: number, model = { provider: "stub", model: "stub" }): Workflow {
  const nodes: WorkflowNode[] = [{ id: "in", type: "input", content: "the question" }];
  const edges: WorkflowEdge[] = [];
  const connect = (source: string, target: string) => edges.push({ id: `e${edges.length}`, source, target });
  const middle = size - 3;
  if (topology === "chain") {
    nodes.push({ id: "n0", type: "generation", ...model });
    connect("in", "n0");
    for (let i = 1; i <= middle; i += 1) {
      nodes.push({ id: `n${i}`, type: "validation", ...model });
      connect(`n${i - 1}`, `n${i}`);
    }
    nodes.push({ id: "out", type: "output", content: "" });
    connect(`n${middle}`, "out");
  } else {
    nodes.push({ id: "ens", type: "ensemble", ...model });
    for (let i = 0; i < middle; i += 1) {
      nodes.push({ id: `n${i}`, type: "generation", ...model });
      connect("in", `n${i}`);
      connect(`n${i}`, "ens");
    }
    nodes.push({ id: "out", type: "output", content: "" });
    connect("ens", "out");
  }
  return { name: `${topology}-${size}`, nodes, edges, prompts: PROMPTS, outputFormat: "plain text" };
}
