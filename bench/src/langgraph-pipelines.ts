import { Annotation, END, Send, START, StateGraph } from "@langchain/langgraph";
import { parseTextContent, renderTemplate, schemaMismatch } from "@weft/engine";
import { LLM_PROMPT, stubReply, type Pipeline } from "./pipeline-topologies.js";

const State = Annotation.Root({
  last: Annotation<string>,
  results: Annotation<string[]>({ reducer: (current, update) => current.concat(update), default: () => [] }),
  round: Annotation<number>({ reducer: (_current, update) => update, default: () => 0 }),
  verdict: Annotation<string>,
});
type GraphState = typeof State.State;

const GRADE_SCHEMA = { type: "object", properties: { verdict: { enum: ["pass", "retry", "fail"] }, score: { type: "number" }, reason: { type: "string" } }, required: ["verdict", "score", "reason"] };

/** A model step: render the template, call the stub, take its text (what Weft's llm node does). */
async function llmStep(input: string, item?: string): Promise<string> {
  const prompt = renderTemplate(item === undefined ? LLM_PROMPT : "Step: {item}", { values: [input], inputsBySource: {}, state: {}, ...(item === undefined ? {} : { item }), feedback: "", iteration: 1, context: null, outputFormat: "" }).text;
  void prompt;
  return stubReply({});
}

/** A grader step: the stub's JSON verdict, parsed and checked against the schema (what Weft's grade node does). */
async function gradeStep(round: number): Promise<string> {
  const reply = JSON.parse(stubReply({ invocationIndex: round, jsonSchema: { name: "grade", schema: GRADE_SCHEMA, strict: true } })) as { verdict: string };
  if (schemaMismatch(GRADE_SCHEMA, reply) !== null) throw new Error("bad grade");
  return reply.verdict;
}

type NodeFn = (state: GraphState) => Promise<Partial<GraphState> | Send[]> | Partial<GraphState>;
interface LooseBuilder {
  addNode(name: string, fn: NodeFn): LooseBuilder;
  addEdge(from: string | string[], to: string): LooseBuilder;
  addConditionalEdges(from: string, path: (state: GraphState) => string | Send[], pathMap?: string[]): LooseBuilder;
  compile(): { invoke(input: Partial<GraphState>, config: { recursionLimit: number }): Promise<GraphState> };
}

/** The same pipelines as `buildPipeline`, as LangGraph.js StateGraphs: one graph node per Weft node that does work. */
export function buildLangGraphPipeline(pipeline: Pipeline, size: number) {
  const builder = new StateGraph(State) as unknown as LooseBuilder;
  builder.addNode("in", () => ({ last: parseTextContent("the question").output }));
  builder.addNode("out", (state) => ({ last: parseTextContent(state.last ?? "").output }));
  builder.addEdge(START, "in");
  builder.addEdge("out", END);
  if (pipeline === "router") routerChain(builder, size);
  else if (pipeline === "loop") retryLoop(builder, size);
  else mapOver(builder, size);
  return builder.compile();
}

/** Each stage: a router node, a conditional edge to a_k or b_k, and a join node fed by both. */
function routerChain(builder: LooseBuilder, stages: number): void {
  let previous = "in";
  for (let k = 0; k < stages; k += 1) {
    builder.addNode(`route${k}`, (state) => ({ last: state.last }));
    builder.addNode(`a${k}`, async (state) => ({ last: await llmStep(state.last) }));
    builder.addNode(`b${k}`, async (state) => ({ last: await llmStep(state.last) }));
    builder.addNode(`j${k}`, (state) => ({ last: state.last }));
    builder.addEdge(previous, `route${k}`);
    builder.addConditionalEdges(`route${k}`, (state) => (state.last.length > 0 ? `a${k}` : `b${k}`), [`a${k}`, `b${k}`]);
    builder.addEdge(`a${k}`, `j${k}`);
    builder.addEdge(`b${k}`, `j${k}`);
    previous = `j${k}`;
  }
  builder.addEdge(previous, "out");
}

/** s1 … sB, then a grader whose conditional edge goes back to s1 (retry) or on to out (pass). */
function retryLoop(builder: LooseBuilder, steps: number): void {
  let previous = "in";
  for (let k = 1; k <= steps; k += 1) {
    builder.addNode(`s${k}`, async (state) => ({ last: await llmStep(state.last) }));
    builder.addEdge(previous, `s${k}`);
    previous = `s${k}`;
  }
  builder.addNode("check", async (state) => ({ verdict: await gradeStep(state.round), round: state.round + 1 }));
  builder.addEdge(previous, "check");
  builder.addConditionalEdges("check", (state) => (state.verdict === "retry" ? "s1" : "out"), ["s1", "out"]);
}

/** A fan-out node whose conditional edge sends one `worker` task per item (LangGraph's Send), then out. */
function mapOver(builder: LooseBuilder, items: number): void {
  const list = Array.from({ length: items }, (_, k) => `item ${k}`);
  builder.addNode("each", () => ({}));
  builder.addNode("worker", async (state) => ({ results: [await llmStep("", (state as unknown as { item: string }).item)] }));
  builder.addEdge("in", "each");
  builder.addConditionalEdges("each", () => list.map((item) => new Send("worker", { item })));
  builder.addEdge("worker", "out");
}
