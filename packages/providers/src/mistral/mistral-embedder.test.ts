import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MistralMockServer } from "../testing/mistral-mock-server.js";
import { planBatches } from "../embedding/plan-batches.js";
import { MistralEmbedder } from "./mistral-embedder.js";

let server: MistralMockServer;

beforeEach(async () => {
  server = await MistralMockServer.start({ apiKey: "k" });
});

afterEach(async () => {
  await server.stop();
});

describe("planBatches", () => {
  it("bounds batches by count and by characters, keeping order", () => {
    expect(planBatches(["a", "b", "c", "d", "e"], 2, 100)).toEqual([["a", "b"], ["c", "d"], ["e"]]);
    expect(planBatches(["aaaa", "bbbb", "cc", "dddddddddd"], 10, 8)).toEqual([["aaaa", "bbbb"], ["cc"], ["dddddddddd"]]);
    expect(planBatches([], 2, 10)).toEqual([]);
  });
});

describe("MistralEmbedder", () => {
  it("embeds with mistral-embed in batches and returns 1024-dimensional vectors in input order", async () => {
    const embedder = new MistralEmbedder({ apiKey: "k", serverURL: server.url, batchSize: 2 });
    const texts = ["first text", "second text", "third text"];
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(3);
    for (const vector of vectors) expect(vector).toHaveLength(1024);
    expect(server.requests.map((r) => r.body)).toEqual([
      { model: "mistral-embed", input: ["first text", "second text"] },
      { model: "mistral-embed", input: ["third text"] },
    ]);
    const [again] = await embedder.embed(["third text"]);
    expect(again).toEqual(vectors[2]);
  });

  it("refuses vectors of the wrong dimension", async () => {
    server.enqueueEmbeddings({ kind: "vectors", dimension: 512 });
    const embedder = new MistralEmbedder({ apiKey: "k", serverURL: server.url });
    await expect(embedder.embed(["x"])).rejects.toMatchObject({ code: "PROVIDER_ERROR", message: expect.stringContaining("expected 1024") });
  });

  it("maps a 429 on embeddings to a retryable error with the requested wait", async () => {
    server.enqueueEmbeddings({ kind: "error", status: 429, headers: { "retry-after": "2" } });
    const embedder = new MistralEmbedder({ apiKey: "k", serverURL: server.url });
    await expect(embedder.embed(["x"])).rejects.toMatchObject({ code: "PROVIDER_RATE_LIMITED", retryable: true, retryAfterMs: 2000 });
  });

  it("reports a wrong key as an auth failure", async () => {
    const embedder = new MistralEmbedder({ apiKey: "bad", serverURL: server.url });
    await expect(embedder.embed(["x"])).rejects.toMatchObject({ code: "PROVIDER_AUTH_FAILED", retryable: false });
  });
});
