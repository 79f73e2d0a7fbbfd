import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { parseResult, parseTextContent, renderPrompt } from "@weft/engine";
import { stubComplete } from "./stub-provider.js";
import { PROMPTS, type Topology } from "./topologies.js";

const State = Annotation.Root({
  last: Annotation<string>,
  parts: Annotation<string[]>({ reducer: (current, update) => current.concat(update), default: () => [] }),
});
type GraphState = typeof State.State;

/** The body of a model node, the same work Weft's model executor does: join, render, call, parse. */
async function modelWork(template: string, inputs: string[]): Promise<string> {
  const inputData = inputs.join("\n\n");
  const prompt = renderPrompt(template, { input_data: inputData, context: null, output_format: "plain text" }).text;
  const reply = await stubComplete({ model: "stub", prompt, json: true, params: {}, inputData });
  return parseResult(reply.text).output;
}

type NodeFn = (state: GraphState) => Promise<Partial<GraphState>>;
/** Node names are generated, so the builder's literal-name typing is loosened here. */
interface LooseBuilder {
  addNode(name: string, fn: NodeFn): LooseBuilder;
  addEdge(from: string | string[], to: string): LooseBuilder;
  compile(): { invoke(input: Partial<GraphState>, config: { recursionLimit: number }): Promise<GraphState> };
}

/**
 * The same topologies as `buildTopology`, as a LangGraph.js StateGraph: one graph node per Weft node,
 * each doing the same per-node work against the same stub. A chain passes `last` along; a fan-out's
 * generation nodes append to `parts` (a reducer channel) and the ensemble waits for all of them.
 */
export function buildLangGraph(topology: Topology, size: number) {
  const builder = new StateGraph(State) as unknown as LooseBuilder;
  const middle = size - 3;
  builder.addNode("in", async () => ({ last: parseTextContent("the question").output }));
  builder.addNode("out", async (state) => ({ last: parseTextContent(state.last).output }));
  builder.addEdge(START, "in");
  builder.addEdge("out", END);
  if (topology === "chain") {
    builder.addNode("n0", async (state) => ({ last: await modelWork(PROMPTS.generation, [state.last]) }));
    builder.addEdge("in", "n0");
    for (let i = 1; i <= middle; i += 1) {
      builder.addNode(`n${i}`, async (state) => ({ last: await modelWork(PROMPTS.validation, [state.last]) }));
      builder.addEdge(`n${i - 1}`, `n${i}`);
    }
    builder.addEdge(`n${middle}`, "out");
  } else {
    const generators: string[] = [];
    for (let i = 0; i < middle; i += 1) {
      builder.addNode(`n${i}`, async (state) => ({ parts: [await modelWork(PROMPTS.generation, [state.last])] }));
      builder.addEdge("in", `n${i}`);
      generators.push(`n${i}`);
    }
    builder.addNode("ens", async (state) => ({ last: await modelWork(PROMPTS.ensemble, state.parts) }));
    builder.addEdge(generators, "ens");
    builder.addEdge("ens", "out");
  }
  return builder.compile();
}
