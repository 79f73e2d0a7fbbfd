import type { WebSearchRequest } from "@weft/engine";
import { describe, expect, it } from "vitest";
import { OFFLINE_WEB_CORPUS, OfflineWebSearchProvider } from "./offline-web-search-provider.js";

const provider = new OfflineWebSearchProvider();
const search = (query: string, overrides: Partial<WebSearchRequest> = {}) =>
  provider.search({ query, maxResults: 5, depth: "basic", ...overrides }, new AbortController().signal);

describe("the offline web corpus", () => {
  it("holds a few dozen pages in English and Korean on reserved .example hosts, each URL once", () => {
    expect(OFFLINE_WEB_CORPUS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(OFFLINE_WEB_CORPUS.map((page) => page.url)).size).toBe(OFFLINE_WEB_CORPUS.length);
    for (const page of OFFLINE_WEB_CORPUS) {
      expect(new URL(page.url).hostname).toMatch(/\.example$/);
      expect(page.paragraphs.length).toBeGreaterThan(0);
    }
    const korean = OFFLINE_WEB_CORPUS.filter((page) => /[가-힣]/.test(page.title));
    expect(korean.length).toBeGreaterThanOrEqual(10);
    expect(OFFLINE_WEB_CORPUS.length - korean.length).toBeGreaterThanOrEqual(10);
  });
});

describe("OfflineWebSearchProvider", () => {
  it("finds the page about the question first, in English", async () => {
    const { provider: id, results } = await search("How does hybrid search combine BM25 keyword scores with vector scores using alpha?");
    expect(id).toBe("offline");
    expect(results[0]?.url).toBe("https://rag-notes.example/hybrid-search");
    expect(results[0]?.score).toBeGreaterThan(results[1]?.score ?? 0);
  });

  it("finds Korean pages for Korean questions", async () => {
    expect((await search("광주 양동시장과 대인시장 야시장"))[`results`][0]?.url).toBe("https://gwangju-guide.example/traditional-markets");
    expect((await search("시맨틱 캐시 유사도 임계값은 얼마가 좋을까"))[`results`][0]?.url).toBe("https://ko.rag-notes.example/semantic-cache");
    expect((await search("팝업스토어 야간 운영 프리미엄 구역 편의시설"))[`results`][0]?.url).toBe("https://popup-notes.example/ko/seller-guide");
  });

  it("returns at most maxResults, best first, with scores in [0, 1]", async () => {
    const { results } = await search("retrieval chunks embeddings search", { maxResults: 3 });
    expect(results).toHaveLength(3);
    expect(results.map((result) => result.score)).toEqual([...results.map((result) => result.score)].sort((a, b) => b - a));
    for (const result of results) expect(result.score).toBeGreaterThanOrEqual(0);
    for (const result of results) expect(result.score).toBeLessThanOrEqual(1);
  });

  it("keeps to included domains and drops excluded ones", async () => {
    const included = await search("asyncio gather event loop", { includeDomains: ["python-notes.example"] });
    expect(included.results.length).toBeGreaterThan(0);
    for (const result of included.results) expect(result.url).toContain("python-notes.example");
    const excluded = await search("asyncio gather event loop", { excludeDomains: ["python-notes.example", "ko.dev-notes.example"] });
    for (const result of excluded.results) expect(result.url).not.toContain("python-notes.example");
  });

  it("gives one paragraph at basic depth and the page's matching passages at advanced depth", async () => {
    const query = "Retry-After header 429 Too Many Requests seconds HTTP date";
    const basic = (await search(query, { depth: "basic" })).results[0];
    const advanced = (await search(query, { depth: "advanced" })).results[0];
    expect(basic?.url).toBe("https://web-notes.example/http-429-retry-after");
    expect(advanced?.url).toBe(basic?.url);
    expect(basic?.content.split("\n\n")).toHaveLength(1);
    expect(advanced?.content.length).toBeGreaterThan(basic?.content.length ?? 0);
    expect(advanced?.content).toContain(basic?.content);
  });

  it("answers the same query the same way every time", async () => {
    expect(await search("git rebase conflicts")).toEqual(await search("git rebase conflicts"));
  });

  it("returns nothing for a query that shares nothing with the corpus", async () => {
    expect((await search("qzxv wpfk")).results).toEqual([]);
  });

  it("refuses an empty query and too many results as bad requests", async () => {
    await expect(search(" ")).rejects.toMatchObject({ code: "PROVIDER_BAD_REQUEST", retryable: false });
    await expect(search("x", { maxResults: 0 })).rejects.toMatchObject({ code: "PROVIDER_BAD_REQUEST" });
  });

  it("scores a corpus it is given instead of the shipped one", async () => {
    const own = new OfflineWebSearchProvider({ pages: [{ url: "https://a.example/x", title: "Weft", paragraphs: ["Weft runs workflows."] }] });
    const { results } = await own.search({ query: "workflows", maxResults: 5, depth: "basic" }, new AbortController().signal);
    expect(results.map((result) => result.url)).toEqual(["https://a.example/x"]);
  });
});
