import { describe, expect, it } from "vitest";
import { ProviderError } from "../../model/errors.js";
import type { JsonValue } from "../../model/json-value.js";
import { FakeWebSearch } from "../../testing/fake-tools.js";
import { runPipeline } from "../../testing/pipeline-harness.js";
import { pipeline } from "../../testing/pipeline-builder.js";

const pages = [
  { title: "Self-attention", url: "https://ml.example/attention", content: "queries, keys and values", score: 0.9 },
  { title: "Hybrid search", url: "https://search.example/hybrid", content: "alpha weighs keywords and vectors", score: 0.7 },
];

/** q ─► web (web_search) ─► out */
function searchGraph(question: string, config: Record<string, JsonValue> = {}, provider = "offline") {
  return pipeline().input("q", question).node("web", "web_search", config, { provider }).output("out").edges("q>web", "web>out").build();
}

describe("web_search nodes", () => {
  it("search with their input through the named provider and output the pages as chunks with URLs", async () => {
    const offline = new FakeWebSearch("offline", pages);
    const { of } = await runPipeline({ workflow: searchGraph("self-attention", { maxResults: 1, depth: "advanced", includeDomains: ["ml.example"] }), tools: { webSearch: new Map([["offline", offline]]) } });
    expect(offline.requests).toEqual([{ query: "self-attention", maxResults: 1, depth: "advanced", includeDomains: ["ml.example"] }]);
    const completed = of("NODE_COMPLETED").find((event) => event.nodeId === "web");
    expect(completed?.value).toEqual([
      { chunkId: "web:https://ml.example/attention", documentId: "https://ml.example/attention", text: "queries, keys and values", score: 0.9, source: "Self-attention", url: "https://ml.example/attention", provider: "offline" },
    ]);
    expect(completed?.details).toMatchObject({ provider: "offline", store: "offline" });
  });

  it("retry a rate-limited search after the wait the provider asked for", async () => {
    const tavily = new FakeWebSearch("tavily", pages);
    tavily.failures.push(new ProviderError("PROVIDER_RATE_LIMITED", "slow down", { retryable: true, retryAfterMs: 1500 }));
    const waits: number[] = [];
    const { outcome } = await runPipeline({
      workflow: searchGraph("q", {}, "tavily"),
      tools: { webSearch: new Map([["tavily", tavily]]) },
      options: { sleep: async (ms) => void waits.push(ms) },
    });
    expect(outcome.status).toBe("COMPLETED");
    expect(waits).toEqual([1500]);
    expect(tavily.requests).toHaveLength(2);
  });

  it("fail at once on a refused key, and name a provider that is not configured", async () => {
    const tavily = new FakeWebSearch("tavily", pages);
    tavily.failures.push(new ProviderError("PROVIDER_AUTH_FAILED", "Tavily refused the API key", { retryable: false }));
    const refused = await runPipeline({ workflow: searchGraph("q", {}, "tavily"), tools: { webSearch: new Map([["tavily", tavily]]) } });
    expect(refused.of("NODE_FAILED")[0]?.error.code).toBe("PROVIDER_AUTH_FAILED");
    expect(tavily.requests).toHaveLength(1);
    const missing = await runPipeline({ workflow: searchGraph("q", {}, "tavily"), tools: { webSearch: new Map([["offline", new FakeWebSearch("offline", pages)]]) } });
    expect(missing.of("NODE_FAILED")[0]?.error).toMatchObject({ code: "WEB_SEARCH_PROVIDER_UNAVAILABLE", message: expect.stringContaining("offline") });
  });

  it("search the first 400 characters of a longer query, with a warning", async () => {
    const offline = new FakeWebSearch("offline", pages);
    const { of } = await runPipeline({ workflow: searchGraph("x".repeat(450)), tools: { webSearch: new Map([["offline", offline]]) } });
    expect(offline.requests[0]?.query).toHaveLength(400);
    expect(of("WARNING").map((event) => event.code)).toEqual(["WEB_QUERY_TRUNCATED"]);
  });

  it("search a query given by CEL instead of the input", async () => {
    const offline = new FakeWebSearch("offline", pages);
    await runPipeline({ workflow: searchGraph("ignored", { query: '"광주 " + "야시장"' }), tools: { webSearch: new Map([["offline", offline]]) } });
    expect(offline.requests[0]?.query).toBe("광주 야시장");
  });
});
