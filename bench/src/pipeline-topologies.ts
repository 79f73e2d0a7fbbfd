import type { LlmProvider, LlmReply, LlmRequest, LlmStreamChunk, Workflow, WorkflowEdge, WorkflowNode } from "@weft/engine";

/**
 * SPEC-V2 pipelines for the engine benchmarks, each also built for LangGraph.js
 * (`langgraph-pipelines.ts`), doing the same work per step against the same zero-latency stub:
 * - router: K stages of switch → (taken) llm / (untaken) llm → join;
 * - loop:   a body of B llm steps and a grader, sent back twice (three iterations);
 * - map:    one llm step per item, N items.
 */

export type Pipeline = "router" | "loop" | "map";

const STUB_TEXT = "stub output";
const VERDICTS = ["retry", "retry", "pass"] as const;

/** The stub both engines call: a fixed text reply, or a grader's verdict by invocation (retry, retry, pass). */
export function stubReply(request: Pick<LlmRequest, "invocationIndex" | "jsonSchema">): string {
  if (!request.jsonSchema) return STUB_TEXT;
  const verdict = VERDICTS[Math.min(request.invocationIndex ?? 0, VERDICTS.length - 1)];
  return JSON.stringify({ verdict, score: verdict === "pass" ? 1 : 0, reason: "tighten it" });
}

export const pipelineStub: LlmProvider = {
  id: "stub",
  label: "Zero-latency stub (benchmarks)",
  models: [{ id: "stub", label: "stub", testOnly: true }],
  complete: async (request): Promise<LlmReply> => ({ text: stubReply(request), model: "stub", usage: null }),
  async *stream(request): AsyncIterable<LlmStreamChunk> {
    yield { type: "done", reply: { text: stubReply(request), model: "stub", usage: null } };
  },
};

const model = { provider: "stub", model: "stub" };
export const LLM_PROMPT = "Step: {input}";

/** Steps of real work each run does (router, model and join steps, the same count in both engines). */
export function workUnits(pipeline: Pipeline, size: number): number {
  if (pipeline === "router") return 3 * size;
  if (pipeline === "loop") return 3 * (size + 1);
  return size;
}

export function buildPipeline(pipeline: Pipeline, size: number): Workflow {
  if (pipeline === "router") return routerChain(size);
  if (pipeline === "loop") return retryLoop(size);
  return mapOver(size);
}

function base(name: string, nodes: WorkflowNode[], edges: WorkflowEdge[]): Workflow {
  return { name, prompts: {}, outputFormat: "", nodes, edges };
}

/** q ─► [route_k ─[a]─► a_k ─► j_k ; route_k ─[b]─► b_k ─► j_k] × K ─► out */
function routerChain(stages: number): Workflow {
  const nodes: WorkflowNode[] = [{ id: "q", type: "input", content: "the question" }];
  const edges: WorkflowEdge[] = [];
  const link = (source: string, target: string, sourcePort?: string) => edges.push({ id: `e${edges.length}`, source, target, ...(sourcePort ? { sourcePort } : {}) });
  let previous = "q";
  for (let k = 0; k < stages; k += 1) {
    nodes.push(
      { id: `route${k}`, type: "switch", config: { cases: [{ port: "a", when: "size(input) > 0" }, { port: "b", when: "size(input) == 0" }] } },
      { id: `a${k}`, type: "llm", ...model, prompt: LLM_PROMPT },
      { id: `b${k}`, type: "llm", ...model, prompt: LLM_PROMPT },
      { id: `j${k}`, type: "join" },
    );
    link(previous, `route${k}`);
    link(`route${k}`, `a${k}`, "a");
    link(`route${k}`, `b${k}`, "b");
    link(`a${k}`, `j${k}`);
    link(`b${k}`, `j${k}`);
    previous = `j${k}`;
  }
  nodes.push({ id: "out", type: "output" });
  link(previous, "out");
  return base(`router-${stages}`, nodes, edges);
}

/** q ─► s1 ─► … ─► sB ─► check ─[pass]─► out ;  check ─[retry, loop regen]─► s1 (retry, retry, pass) */
function retryLoop(steps: number): Workflow {
  const nodes: WorkflowNode[] = [{ id: "q", type: "input", content: "the question" }];
  const edges: WorkflowEdge[] = [];
  const link = (source: string, target: string, sourcePort?: string) => edges.push({ id: `e${edges.length}`, source, target, ...(sourcePort ? { sourcePort } : {}) });
  let previous = "q";
  for (let k = 1; k <= steps; k += 1) {
    nodes.push({ id: `s${k}`, type: "llm", ...model, prompt: LLM_PROMPT });
    link(previous, `s${k}`);
    previous = `s${k}`;
  }
  nodes.push({ id: "check", type: "grade", ...model }, { id: "out", type: "output" });
  link(previous, "check");
  link("check", "out", "pass");
  edges.push({ id: "back", source: "check", sourcePort: "retry", target: "s1", loop: "regen" });
  return { ...base(`loop-${steps}`, nodes, edges), loops: [{ id: "regen", max: 3, exit: "pass" }] };
}

/** q ─► each (map over N items: bin ─► work ─► bout) ─► out */
function mapOver(items: number): Workflow {
  const list = JSON.stringify(Array.from({ length: items }, (_, k) => `item ${k}`));
  const body = {
    nodes: [{ id: "bin", type: "input" }, { id: "work", type: "llm", ...model, prompt: "Step: {item}" }, { id: "bout", type: "output" }],
    edges: [
      { id: "b1", source: "bin", target: "work" },
      { id: "b2", source: "work", target: "bout" },
    ],
  };
  const nodes: WorkflowNode[] = [
    { id: "q", type: "input", content: "go" },
    { id: "each", type: "map", config: { items: list, maxItems: items, concurrency: 64, body } },
    { id: "out", type: "output" },
  ];
  const edges: WorkflowEdge[] = [
    { id: "e1", source: "q", target: "each" },
    { id: "e2", source: "each", target: "out" },
  ];
  return { ...base(`map-${items}`, nodes, edges), limits: { maxInvocations: 100_000 } };
}
