import type { Workflow, WorkflowEdge, WorkflowNode } from "../model/workflow.js";
import { pick, shuffle } from "../random/seeded-random.js";

/**
 * A random workflow that obeys SPEC §2/§3 by construction: generation nodes take one input node;
 * validation nodes take one node that has no post-node yet (or an input); ensembles take 1–3 of those;
 * whatever is left open is joined into a final ensemble feeding the single output node. Edges are then
 * shuffled, since their creation order is arbitrary but decides every node's input order.
 */
export function randomWorkflow(random: () => number, maxModelNodes: number): Workflow {
  const nodes: WorkflowNode[] = [];
  const edges: Array<Omit<WorkflowEdge, "id">> = [];
  const inputs = Array.from({ length: 1 + Math.floor(random() * 3) }, (_v, i) => `in${i}`);
  for (const id of inputs) nodes.push({ id, type: "input", content: `text of ${id}` });
  const usedInputs = new Set<string>();
  const open: string[] = [];
  const take = (id: string) => {
    const at = open.indexOf(id);
    if (at !== -1) open.splice(at, 1);
    else usedInputs.add(id);
  };
  const modelCount = Math.floor(random() * (maxModelNodes + 1));
  for (let k = 0; k < modelCount; k += 1) {
    const type = pick(random, ["generation", "validation", "ensemble"] as const);
    const id = `${type[0]}${k}`;
    const candidates = [...inputs, ...open];
    const preCount = type === "ensemble" ? 1 + Math.floor(random() * Math.min(3, candidates.length)) : 1;
    const pres = type === "generation" ? [pick(random, inputs)] : shuffle(random, candidates).slice(0, preCount);
    for (const pre of pres) {
      take(pre);
      edges.push({ source: pre, target: id });
    }
    const prompt = random() < 0.3 ? { prompt: `${id}<{input_data}>` } : {};
    nodes.push({ id, type, provider: "digest", model: "m", ...prompt });
    open.push(id);
  }
  const remaining = [...open, ...inputs.filter((id) => !usedInputs.has(id))];
  let last = remaining[0]!;
  if (remaining.length > 1) {
    last = "final";
    nodes.push({ id: last, type: "ensemble", provider: "digest", model: "m" });
    for (const id of remaining) edges.push({ source: id, target: last });
  }
  nodes.push({ id: "out", type: "output", content: "" });
  edges.push({ source: last, target: "out" });
  return {
    name: "random",
    nodes: shuffle(random, nodes),
    edges: shuffle(random, edges).map((edge, index) => ({ id: `e${index}`, ...edge })),
    prompts: { generation: "G[{input_data}]", ensemble: "E[{input_data}]{output_format}", validation: "V[{input_data}]" },
    outputFormat: "<format>",
    knowledgeBase: null,
    intensity: null,
  };
}
