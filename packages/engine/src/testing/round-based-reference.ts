import type { Workflow, WorkflowNode } from "../model/workflow.js";
import type { LlmProvider } from "../providers/llm-provider.js";

/**
 * The seed's server-side algorithm, step by step, as a reference for the dataflow executor. Deliberately
 * naive (rounds, linear scans, sequential string replaces, plain JSON.parse): it exists to be obviously
 * faithful to the seed, not fast. Knowledge bases are not modelled.
 */
export async function runRoundBased(workflow: Workflow, provider: LlmProvider): Promise<Record<string, string>> {
  const outputs = new Map<string, string>();
  const byId = new Map(workflow.nodes.map((node) => [node.id, node]));
  const preNodes = (id: string) => workflow.edges.filter((edge) => edge.target === id).map((edge) => edge.source);
  const postNodes = (id: string) => workflow.edges.filter((edge) => edge.source === id).map((edge) => edge.target);

  // 1. Find every input node and put it on the waiting list.
  let waiting = workflow.nodes.filter((node) => node.type === "input").map((node) => node.id);
  // 2. Repeat until the list holds no more nodes to run.
  while (waiting.length > 0) {
    // 1-2-1. The nodes with no pre-node or whose pre-nodes all have an output.
    const ready = waiting.filter((id) => preNodes(id).every((pre) => outputs.has(pre)));
    if (ready.length === 0) throw new Error("round-based reference: no node is ready");
    // 1-2-2 / 1-2-3. Run them in parallel and wait for all of them.
    const results = await Promise.all(
      ready.map((id) => executeNode(workflow, byId.get(id)!, preNodes(id).map((pre) => outputs.get(pre)!), provider)),
    );
    ready.forEach((id, index) => outputs.set(id, results[index]!));
    // 1-2-4. Put their post-nodes on the list and take them off it.
    waiting = waiting.filter((id) => !ready.includes(id));
    for (const id of ready) for (const post of postNodes(id)) if (!waiting.includes(post)) waiting.push(post);
  }
  return Object.fromEntries(outputs);
}

async function executeNode(workflow: Workflow, node: WorkflowNode, inputs: string[], provider: LlmProvider): Promise<string> {
  if (node.type === "input" || node.type === "output") {
    // 1-1 … 1-5: input is the pre-node's output or null; a non-null input replaces the content.
    const input = inputs.length > 0 ? inputs[0]! : null;
    const content = input ?? node.content ?? "";
    return resultParser(JSON.stringify({ description: content, output: content }));
  }
  // 2-2 … 2-5: concatenate the inputs, then replace the placeholders one after the other.
  const inputData = inputs.join("\n\n");
  let prompt = node.prompt ?? workflow.prompts[node.type] ?? "";
  prompt = prompt.replaceAll("{input_data}", inputData);
  prompt = prompt.replaceAll("{output_format}", workflow.outputFormat);
  // 2-6 … 2-8: call the LLM and parse its reply.
  const reply = await provider.complete(
    { model: node.model ?? "", prompt, json: true, params: node.params ?? {}, inputData },
    new AbortController().signal,
  );
  return resultParser(reply.text);
}

function resultParser(text: string): string {
  const parsed = JSON.parse(text) as { description: unknown; output: unknown };
  return typeof parsed.output === "string" ? parsed.output : JSON.stringify(parsed.output);
}
