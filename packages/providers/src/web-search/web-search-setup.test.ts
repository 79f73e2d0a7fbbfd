import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TavilyMockServer } from "../testing/tavily-mock-server.js";
import { configureWebSearch } from "./web-search-setup.js";

let mock: TavilyMockServer;
beforeAll(async () => {
  mock = await TavilyMockServer.start({ apiKey: "tvly-configured" });
});
afterAll(async () => {
  await mock.stop();
});

describe("configureWebSearch", () => {
  it("offers the offline provider alone without a Tavily key", () => {
    expect([...configureWebSearch().keys()]).toEqual(["offline"]);
  });

  it("adds Tavily with the key and server it is given", async () => {
    const providers = configureWebSearch({ tavilyApiKey: "tvly-configured", tavilyServerURL: mock.url, tavilyTimeoutMs: 5_000 });
    expect([...providers.keys()]).toEqual(["offline", "tavily"]);
    const response = await providers.get("tavily")!.search({ query: "hybrid search", maxResults: 1, depth: "basic" }, new AbortController().signal);
    expect(response).toMatchObject({ provider: "tavily", results: [expect.objectContaining({ url: expect.stringMatching(/^https:/) })] });
    expect(mock.requests[0]?.headers.authorization).toBe("Bearer tvly-configured");
  });
});
