import { DEFAULT_RETRY_OPTIONS, withRetries, type WebSearchRequest } from "@weft/engine";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { freePort as closedPort } from "../testing/free-port.js";
import { TavilyMockServer } from "../testing/tavily-mock-server.js";
import { TavilyWebSearchProvider } from "./tavily-web-search-provider.js";

const request = (overrides: Partial<WebSearchRequest> = {}): WebSearchRequest => ({ query: "self-attention", maxResults: 5, depth: "basic", ...overrides });
const signal = () => new AbortController().signal;

let mock: TavilyMockServer;
let provider: TavilyWebSearchProvider;

beforeAll(async () => {
  mock = await TavilyMockServer.start({ apiKey: "tvly-good" });
  provider = new TavilyWebSearchProvider({ apiKey: "tvly-good", serverURL: mock.url, timeoutMs: 2_000 });
});

afterAll(async () => {
  await mock.stop();
});

afterEach(() => {
  mock.requests.length = 0;
});

/** The engine's retry loop with a recorded, instant sleep: what a node does with a provider call. */
function retried<T>(call: () => Promise<T>) {
  const waits: number[] = [];
  const result = withRetries(call, {
    options: DEFAULT_RETRY_OPTIONS,
    sleep: async (ms) => void waits.push(ms),
    random: () => 0.5,
    signal: signal(),
    onRetry: () => undefined,
  });
  return { result, waits };
}

describe("TavilyWebSearchProvider", () => {
  it("posts the search with the key, depth, result count and domains, and maps the results", async () => {
    const response = await provider.search(request({ depth: "advanced", maxResults: 2, includeDomains: ["example"], excludeDomains: ["ml.example"] }), signal());
    expect(mock.requests[0]).toMatchObject({
      path: "/search",
      headers: { authorization: "Bearer tvly-good" },
      body: { query: "self-attention", search_depth: "advanced", max_results: 2, include_domains: ["example"], exclude_domains: ["ml.example"], include_answer: false },
    });
    expect(response.provider).toBe("tavily");
    expect(response.results).toEqual([
      { title: "Hybrid search", url: "https://search.example/hybrid", content: "Keyword and vector scores fused with a weight alpha.", score: 0.84 },
      { title: "광주 전통시장", url: "https://gwangju.example/markets", content: "양동시장과 대인시장은 광주의 대표 시장이다.", score: 0.77 },
    ]);
  });

  it("sends no domain lists when none are given", async () => {
    await provider.search(request(), signal());
    expect(mock.requests[0]?.body).not.toHaveProperty("include_domains");
    expect(mock.requests[0]?.body).not.toHaveProperty("exclude_domains");
  });

  it("fails permanently on a refused key, so the retry loop calls once", async () => {
    const wrongKey = new TavilyWebSearchProvider({ apiKey: "tvly-bad", serverURL: mock.url });
    const { result, waits } = retried(() => wrongKey.search(request(), signal()));
    await expect(result).rejects.toMatchObject({ code: "PROVIDER_AUTH_FAILED", retryable: false, message: expect.stringContaining("TAVILY_API_KEY") });
    expect(mock.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it("retries a 429 after the Retry-After it was given, then succeeds", async () => {
    mock.enqueue({ kind: "error", status: 429, headers: { "retry-after": "2" } });
    const { result, waits } = retried(() => provider.search(request(), signal()));
    expect((await result).results.length).toBeGreaterThan(0);
    expect(waits).toEqual([2_000]);
    expect(mock.requests).toHaveLength(2);
  });

  it("retries 5xx answers, honouring Retry-After when there is one", async () => {
    mock.enqueue({ kind: "error", status: 503, headers: { "retry-after": "1" } }, { kind: "error", status: 500 });
    const { result, waits } = retried(() => provider.search(request(), signal()));
    await expect(result).resolves.toMatchObject({ provider: "tavily" });
    expect(waits[0]).toBe(1_000);
    expect(waits).toHaveLength(2);
  });

  it("gives up after the retry policy's attempts and reports the last error", async () => {
    mock.enqueue({ kind: "error", status: 502 }, { kind: "error", status: 502 }, { kind: "error", status: 502 });
    const { result } = retried(() => provider.search(request(), signal()));
    await expect(result).rejects.toMatchObject({ code: "PROVIDER_UNAVAILABLE", retryable: true });
    expect(mock.requests).toHaveLength(DEFAULT_RETRY_OPTIONS.attempts);
  });

  it("treats an exhausted plan as permanent and a bad request as the caller's error", async () => {
    mock.enqueue({ kind: "error", status: 432 }, { kind: "error", status: 400 });
    await expect(provider.search(request(), signal())).rejects.toMatchObject({ code: "PROVIDER_RATE_LIMITED", retryable: false, message: expect.stringContaining("usage limit") });
    await expect(provider.search(request(), signal())).rejects.toMatchObject({ code: "PROVIDER_BAD_REQUEST", retryable: false });
  });

  it("times out a search that gets no answer, as a retryable PROVIDER_TIMEOUT", async () => {
    mock.enqueue({ kind: "hang" });
    const quick = new TavilyWebSearchProvider({ apiKey: "tvly-good", serverURL: mock.url, timeoutMs: 200 });
    await expect(quick.search(request(), signal())).rejects.toMatchObject({ code: "PROVIDER_TIMEOUT", retryable: true, message: expect.stringContaining("200 ms") });
  });

  it("passes cancellation through as an AbortError, not a provider failure", async () => {
    mock.enqueue({ kind: "hang" });
    const controller = new AbortController();
    const pending = provider.search(request(), controller.signal);
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });

  it("reports an unreachable server as retryable PROVIDER_UNAVAILABLE naming the URL", async () => {
    const port = await closedPort();
    const nowhere = new TavilyWebSearchProvider({ apiKey: "k", serverURL: `http://127.0.0.1:${port}` });
    await expect(nowhere.search(request(), signal())).rejects.toMatchObject({
      code: "PROVIDER_UNAVAILABLE",
      retryable: true,
      message: expect.stringContaining(`127.0.0.1:${port}`),
    });
  });

  it("refuses an answer that is not Tavily's shape", async () => {
    mock.enqueue({ kind: "raw", status: 200, body: "<html>gateway</html>" }, { kind: "raw", status: 200, body: JSON.stringify({ results: [{ title: 1 }] }) });
    await expect(provider.search(request(), signal())).rejects.toMatchObject({ code: "PROVIDER_ERROR", message: expect.stringContaining("not JSON") });
    await expect(provider.search(request(), signal())).rejects.toMatchObject({ code: "PROVIDER_ERROR", message: expect.stringContaining("shape") });
  });

  it("refuses an empty or overlong query and a bad result count without calling Tavily", async () => {
    await expect(provider.search(request({ query: "  " }), signal())).rejects.toMatchObject({ code: "PROVIDER_BAD_REQUEST" });
    await expect(provider.search(request({ query: "q".repeat(401) }), signal())).rejects.toMatchObject({ code: "PROVIDER_BAD_REQUEST", message: expect.stringContaining("400") });
    await expect(provider.search(request({ maxResults: 21 }), signal())).rejects.toMatchObject({ code: "PROVIDER_BAD_REQUEST" });
    expect(mock.requests).toHaveLength(0);
  });
});
