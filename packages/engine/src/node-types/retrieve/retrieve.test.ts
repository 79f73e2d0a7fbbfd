import { describe, expect, it } from "vitest";
import { parseWorkflowValue } from "../../document/workflow-document.parser.js";
import { builtInRegistry } from "../built-in-node-types.js";
import { validateWorkflow } from "../../rules/validate-workflow.js";
import { FakeKnowledgeBases, type FakeChunk } from "../../testing/fake-tools.js";
import { runPipeline } from "../../testing/pipeline-harness.js";
import { pipeline } from "../../testing/pipeline-builder.js";

const doc = (documentId: string, texts: string[], extra: Partial<FakeChunk> = {}): FakeChunk[] =>
  texts.map((text, chunkIndex) => ({ id: `${documentId}#${chunkIndex}`, documentId, title: `${documentId}.md`, chunkIndex, text, ...extra }));

const handbook = () =>
  new FakeKnowledgeBases({
    handbook: [
      ...doc("retries", ["rate limits are retried after the retry-after header", "backoff doubles the wait", "jitter spreads retries"]),
      ...doc("editor", ["the editor draws the graph", "nodes connect by dragging"], { page: 4, metadata: { lang: "en" } }),
      ...doc("faq", ["광주 양동시장 야시장", "무등산 국립공원"], { metadata: { lang: "ko" } }),
    ],
  });

/** q ─► find ─► out */
function retrieveGraph(question: string, config: Record<string, unknown> = {}) {
  return pipeline()
    .input("q", question)
    .node("find", "retrieve", { knowledgeBase: "handbook", topK: 3, ...config } as never)
    .output("out")
    .edges("q>find", "find>out")
    .build();
}

describe("retrieve nodes", () => {
  it("search the knowledge base with their input and output the chunks, best first, with their source", async () => {
    const tools = { knowledgeBases: handbook() };
    const workflow = retrieveGraph("how are rate limits and retries handled");
    expect(validateWorkflow(workflow, { registry: builtInRegistry })).toEqual([]);
    const { outcome, of } = await runPipeline({ workflow, tools });
    expect(outcome.status).toBe("COMPLETED");
    const [completed] = of("NODE_COMPLETED").filter((event) => event.nodeId === "find");
    expect(completed?.value).toEqual([
      expect.objectContaining({ chunkId: "retries#0", documentId: "retries", source: "retries.md", chunkIndex: 0, knowledgeBase: "handbook", text: "rate limits are retried after the retry-after header" }),
      expect.objectContaining({ chunkId: "retries#2" }),
    ]);
    expect(completed?.details).toMatchObject({ store: "fake", context: [expect.objectContaining({ id: "retries#0" }), expect.objectContaining({ id: "retries#2" })] });
    expect(tools.knowledgeBases.searches).toEqual([{ knowledgeBase: "handbook", query: { queries: ["how are rate limits and retries handled"], topK: 3 } }]);
  });

  it("send several queries from a CEL list, with the filter and alpha, and merge the hits", async () => {
    const tools = { knowledgeBases: handbook() };
    const workflow = retrieveGraph("graph", { queries: '[input, "retried after header"]', filter: { documentId: ["retries", "editor"] }, alpha: 0.3 });
    const { of } = await runPipeline({ workflow, tools });
    expect(tools.knowledgeBases.searches[0]?.query).toEqual({ queries: ["graph", "retried after header"], topK: 3, filter: { documentId: ["retries", "editor"] }, alpha: 0.3 });
    const ids = (of("NODE_COMPLETED").find((event) => event.nodeId === "find")?.value as { chunkId: string }[]).map((chunk) => chunk.chunkId);
    expect(ids).toEqual(["retries#0", "editor#0"]);
  });

  it("drop the chunks scoring under minScore, saying how many", async () => {
    const workflow = retrieveGraph("how are rate limits and retries handled", { minScore: 0.2 });
    const { of } = await runPipeline({ workflow, tools: { knowledgeBases: handbook() } });
    const completed = of("NODE_COMPLETED").find((event) => event.nodeId === "find");
    expect((completed?.value as { chunkId: string; score: number }[]).map((chunk) => chunk.chunkId)).toEqual(["retries#0"]);
    expect(completed?.description).toBe("1 chunks from handbook (1 query, fake; 1 under 0.2 dropped)");
  });

  it("take an input that is a list of texts as several queries", async () => {
    //  q ─► plan (template, JSON list) ─► find ─► out
    const tools = { knowledgeBases: handbook() };
    const workflow = pipeline()
      .input("q", "x")
      .node("plan", "template", { template: '["무등산", "야시장"]', json: true })
      .node("find", "retrieve", { knowledgeBase: "handbook" })
      .output("out")
      .edges("q>plan", "plan>find", "find>out")
      .build();
    await runPipeline({ workflow, tools });
    expect(tools.knowledgeBases.searches[0]?.query.queries).toEqual(["무등산", "야시장"]);
  });

  it("fail clearly without a knowledge base, without a search service, or with an unknown knowledge base", async () => {
    const none = pipeline().input("q", "x").node("find", "retrieve").output("out").edges("q>find", "find>out").build();
    expect((await runPipeline({ workflow: none, tools: { knowledgeBases: handbook() } })).of("NODE_FAILED")[0]?.error.code).toBe("KNOWLEDGE_BASE_REQUIRED");
    expect((await runPipeline({ workflow: retrieveGraph("x") })).of("NODE_FAILED")[0]?.error.code).toBe("KNOWLEDGE_BASES_UNAVAILABLE");
    const unknown = retrieveGraph("x", { knowledgeBase: "nowhere" });
    expect((await runPipeline({ workflow: unknown, tools: { knowledgeBases: handbook() } })).of("NODE_FAILED")[0]?.error.code).toBe("KNOWLEDGE_BASE_NOT_FOUND");
  });

  it("search the first 20 of a longer query list, with a warning", async () => {
    const tools = { knowledgeBases: handbook() };
    const { of } = await runPipeline({ workflow: retrieveGraph("x", { queries: "[" + Array.from({ length: 25 }, (_, i) => `"q${i}"`).join(", ") + "]" }), tools });
    expect(tools.knowledgeBases.searches[0]?.query.queries).toHaveLength(20);
    expect(of("WARNING").map((event) => event.code)).toContain("RETRIEVE_QUERIES_TRUNCATED");
  });

  it("refuse a malformed filter when the document is read, naming the field", () => {
    const document = {
      format: "weft.workflow/v2",
      name: "bad filter",
      nodes: [
        { id: "q", type: "input" },
        { id: "find", type: "retrieve", knowledgeBase: "kb", filter: { page: { gte: 5, lte: 1 } } },
        { id: "out", type: "output" },
      ],
      edges: [
        { source: "q", target: "find" },
        { source: "find", target: "out" },
      ],
    };
    const parsed = parseWorkflowValue(document, { registry: builtInRegistry });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.issues.map((issue) => issue.path)).toContain("nodes[1].filter.page");
  });
});
