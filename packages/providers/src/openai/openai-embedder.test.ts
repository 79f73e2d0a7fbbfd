import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OpenAiMockServer } from "../testing/openai-mock-server.js";
import { OpenAiEmbedder } from "./openai-embedder.js";

let server: OpenAiMockServer;

beforeEach(async () => {
  server = await OpenAiMockServer.start({ apiKey: "sk" });
});

afterEach(async () => {
  await server.stop();
});

describe("OpenAiEmbedder", () => {
  it("embeds in batches, in input order, under the model id <provider>:<model>", async () => {
    const embedder = new OpenAiEmbedder({ apiKey: "sk", baseURL: server.baseURL, model: "text-embedding-3-small", dimension: 1536, batchSize: 2 });
    expect(embedder.model).toBe("openai:text-embedding-3-small");
    const vectors = await embedder.embed(["one", "two", "three"]);
    expect(vectors.map((vector) => vector.length)).toEqual([1536, 1536, 1536]);
    expect(server.requests.map((r) => r.body)).toEqual([
      { model: "text-embedding-3-small", input: ["one", "two"], encoding_format: "float" },
      { model: "text-embedding-3-small", input: ["three"], encoding_format: "float" },
    ]);
    expect((await embedder.embed(["three"]))[0]).toEqual(vectors[2]);
  });

  it("refuses vectors of another dimension than the configured one", async () => {
    server.enqueueEmbeddings({ kind: "vectors", dimension: 768 });
    const embedder = new OpenAiEmbedder({ id: "ollama", label: "ollama", apiKey: "sk", baseURL: server.baseURL, model: "nomic-embed-text", dimension: 1024 });
    await expect(embedder.embed(["x"])).rejects.toMatchObject({ code: "PROVIDER_ERROR", message: expect.stringContaining("a 768-dimensional embedding for input 0; expected 1024 numbers (ollama:nomic-embed-text)") });
  });

  it("maps a 429 on embeddings to a retryable error with the requested wait", async () => {
    server.enqueueEmbeddings({ kind: "error", status: 429, headers: { "retry-after": "3" } });
    const embedder = new OpenAiEmbedder({ apiKey: "sk", baseURL: server.baseURL, model: "text-embedding-3-small", dimension: 1536 });
    await expect(embedder.embed(["x"])).rejects.toMatchObject({ code: "PROVIDER_RATE_LIMITED", retryable: true, retryAfterMs: 3000 });
  });
});
