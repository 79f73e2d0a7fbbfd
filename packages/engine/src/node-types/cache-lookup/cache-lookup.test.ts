import { describe, expect, it } from "vitest";
import type { JsonValue } from "../../model/json-value.js";
import type { ToolProviders } from "../../providers/tool-providers.js";
import { builtInRegistry } from "../built-in-node-types.js";
import { validateWorkflow } from "../../rules/validate-workflow.js";
import { FakeSemanticCache } from "../../testing/fake-tools.js";
import { runPipeline } from "../../testing/pipeline-harness.js";
import { pipeline } from "../../testing/pipeline-builder.js";

/**
 *  q ─► lookup ─[hit]────────────────────────────► j ─► out
 *          └──[miss]──► answer (llm) ─► store ───┘
 */
function cachedAnswer(question: string, lookup: Record<string, JsonValue> = {}, store: Record<string, JsonValue> = {}) {
  return pipeline()
    .input("q", question)
    .node("lookup", "cache_lookup", { threshold: 0.8, ...lookup })
    .model("answer", "llm", ["fresh answer"])
    .node("store", "cache_store", { ttlSeconds: 3600, ...store })
    .node("j", "join", { mode: "first" })
    .output("out")
    .edges("q>lookup", "lookup.hit>j", "lookup.miss>answer", "answer>store", "store>j", "j>out")
    .build();
}

const version = (n: number) => ({ workflowId: "wf", version: n });

async function ask(question: string, tools: ToolProviders, lookup: Record<string, JsonValue> = {}, store: Record<string, JsonValue> = {}) {
  const run = await runPipeline({ workflow: cachedAnswer(question, lookup, store), tools });
  return { ...run, ran: run.of("NODE_STARTED").map((event) => event.nodeId), codes: run.events.map((event) => event.type) };
}

describe("cache_lookup and cache_store nodes", () => {
  it("miss and store the first time, hit with the stored answer the second time", async () => {
    const cache = new FakeSemanticCache();
    const tools = { cache, workflowVersion: version(3) };
    expect(validateWorkflow(cachedAnswer("q"), { registry: builtInRegistry })).toEqual([]);
    const first = await ask("what is hybrid search", tools);
    expect(first.outcome.result).toBe("fresh answer");
    expect(first.of("CACHE_MISS")).toEqual([expect.objectContaining({ nodeId: "lookup" })]);
    expect(cache.saved).toEqual([{ scope: "workflow:wf:v3", question: "what is hybrid search", answer: "fresh answer", ttlSeconds: 3600 }]);
    const second = await ask("what is hybrid search", tools);
    expect(second.outcome.result).toBe("fresh answer");
    expect(second.of("CACHE_HIT")).toEqual([expect.objectContaining({ nodeId: "lookup", similarity: 1 })]);
    expect(second.ran).not.toContain("answer");
    expect(second.of("NODE_SKIPPED").map((event) => event.nodeId)).toEqual(["answer", "store"]);
  });

  it("miss an unrelated question", async () => {
    const cache = new FakeSemanticCache();
    const tools = { cache, workflowVersion: version(1) };
    await ask("what is hybrid search", tools);
    const other = await ask("how do I rebase a branch", tools);
    expect(other.of("CACHE_MISS")).toHaveLength(1);
    expect(other.ran).toContain("answer");
  });

  it("keep workflow versions apart, and share a named namespace across them", async () => {
    const cache = new FakeSemanticCache();
    await ask("what is hybrid search", { cache, workflowVersion: version(1) });
    expect((await ask("what is hybrid search", { cache, workflowVersion: version(2) })).of("CACHE_MISS")).toHaveLength(1);
    await ask("what is bm25", { cache, workflowVersion: version(1) }, { namespace: "faq" }, { namespace: "faq" });
    expect((await ask("what is bm25", { cache, workflowVersion: version(9) }, { namespace: "faq" })).of("CACHE_HIT")).toHaveLength(1);
  });

  it("store under a question given by CEL", async () => {
    const cache = new FakeSemanticCache();
    await ask("what is hybrid search", { cache, workflowVersion: version(1) }, {}, { query: '"canonical: " + run.inputs.q' });
    expect(cache.saved[0]?.question).toBe("canonical: what is hybrid search");
  });

  it("look up a question given by CEL", async () => {
    const cache = new FakeSemanticCache();
    const tools = { cache, workflowVersion: version(1) };
    await ask("what is hybrid search", tools, {}, { query: '"canonical: " + run.inputs.q' });
    const again = await ask("WHAT IS HYBRID SEARCH", tools, { query: '"canonical: " + run.inputs.q.lowerAscii()' });
    expect(again.of("CACHE_HIT")).toHaveLength(1);
  });

  it("answer without a cache service, warning that none is configured", async () => {
    const run = await ask("what is hybrid search", {});
    expect(run.outcome.result).toBe("fresh answer");
    expect(run.of("WARNING").map((event) => [event.nodeId, event.code])).toEqual([
      ["lookup", "CACHE_UNAVAILABLE"],
      ["store", "CACHE_UNAVAILABLE"],
    ]);
  });

  it("fail clearly when neither a namespace nor the workflow version is known", async () => {
    const run = await ask("q", { cache: new FakeSemanticCache() });
    expect(run.of("NODE_FAILED")[0]?.error.code).toBe("CACHE_SCOPE_UNKNOWN");
  });
});

describe("cache on llm nodes", () => {
  /** q ─► answer (llm with cache) ─► out */
  const llmGraph = (question: string) =>
    pipeline().input("q", question).model("answer", "llm", ["model reply"], { cache: { threshold: 0.9, ttlSeconds: 60 } }, { prompt: "Answer: {input}" }).output("out").edges("q>answer", "answer>out").build();

  it("reuse the reply of the same prompt in the node's own cache, without calling the model", async () => {
    const cache = new FakeSemanticCache();
    const tools = { cache, workflowVersion: version(1) };
    const first = await runPipeline({ workflow: llmGraph("what is hybrid search"), tools });
    expect(first.of("CACHE_MISS")).toHaveLength(1);
    expect(cache.saved).toEqual([{ scope: "workflow:wf:v1:node:answer", question: "Answer: what is hybrid search", answer: "model reply", ttlSeconds: 60 }]);
    const second = await runPipeline({ workflow: llmGraph("what is hybrid search"), tools });
    expect(second.of("CACHE_HIT")).toEqual([expect.objectContaining({ nodeId: "answer", similarity: 1 })]);
    expect(second.outcome.result).toBe("model reply");
    expect(second.of("NODE_COMPLETED")[1]?.details).toMatchObject({ rawReply: null, usage: null });
  });

  it("warn and call the model when no cache service is configured", async () => {
    const run = await runPipeline({ workflow: llmGraph("q") });
    expect(run.of("WARNING").map((event) => event.code)).toEqual(["CACHE_UNAVAILABLE"]);
    expect(run.outcome.result).toBe("model reply");
  });
});
