import { describe, expect, it } from "vitest";
import { TavilyWebSearchProvider } from "./tavily-web-search-provider.js";

// Runs only with a real key: the default suite never talks to the network.
const apiKey = process.env.TAVILY_API_KEY ?? "";

describe.runIf(apiKey !== "")("Tavily search API (live)", () => {
  const provider = new TavilyWebSearchProvider({ apiKey, ...(process.env.TAVILY_SERVER_URL ? { serverURL: process.env.TAVILY_SERVER_URL } : {}) });

  it("returns scored results with URLs", async () => {
    const response = await provider.search({ query: "transformer self-attention", maxResults: 3, depth: "basic" }, new AbortController().signal);
    expect(response.results.length).toBeGreaterThan(0);
    expect(response.results.length).toBeLessThanOrEqual(3);
    for (const result of response.results) {
      expect(result.url).toMatch(/^https?:\/\//);
      expect(result.score).toBeGreaterThanOrEqual(0);
      expect(result.score).toBeLessThanOrEqual(1);
    }
  }, 60_000);

  it("keeps to the included domains", async () => {
    const response = await provider.search({ query: "asyncio gather", maxResults: 3, depth: "basic", includeDomains: ["python.org"] }, new AbortController().signal);
    for (const result of response.results) expect(new URL(result.url).hostname).toMatch(/(^|\.)python\.org$/);
  }, 60_000);

  it("refuses a wrong key permanently", async () => {
    const wrong = new TavilyWebSearchProvider({ apiKey: "tvly-not-a-real-key" });
    await expect(wrong.search({ query: "weft", maxResults: 1, depth: "basic" }, new AbortController().signal)).rejects.toMatchObject({ code: "PROVIDER_AUTH_FAILED", retryable: false });
  }, 60_000);
});
