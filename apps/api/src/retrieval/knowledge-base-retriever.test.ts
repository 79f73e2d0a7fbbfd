import { ExactVectorStore, LocalEmbedder, LOCAL_EMBEDDER_MODEL, WeaviateVectorStore } from "@weft/providers";
import { beforeAll, describe, expect, it } from "vitest";
import { indexDocuments } from "./ingestion.test-helpers.js";
import type { KnowledgeBaseIndexSettings } from "./ingestion.service.js";
import type { KnowledgeBaseRecord } from "./knowledge-base-record.js";
import { KnowledgeBaseRetriever } from "./knowledge-base-retriever.js";

const embedder = new LocalEmbedder();
const kb: KnowledgeBaseIndexSettings = {
  id: "kb1",
  name: "handbook",
  embeddingModel: LOCAL_EMBEDDER_MODEL,
  dimension: 512,
  store: "exact-memory",
  chunkSize: 200,
  chunkOverlap: 0,
};
const store = new ExactVectorStore();
const signal = () => new AbortController().signal;
const lookupOf = (...kbs: KnowledgeBaseRecord[]) => async (name: string) => kbs.find((k) => k.name === name) ?? null;

beforeAll(async () => {
  await indexDocuments(
    kb,
    [
      { title: "Retries", content: "Transient provider errors are retried with exponential backoff. A 429 answer honours Retry-After." },
      { title: "Editor", content: "The editor draws the workflow graph. Nodes are connected by dragging from handle to handle." },
      { title: "한국어", content: "지식 베이스는 문서를 청크로 나누어 임베딩합니다. 검색 강도에 따라 top_k가 정해집니다." },
    ],
    store,
    embedder,
  );
});

describe("KnowledgeBaseRetriever", () => {
  const retriever = new KnowledgeBaseRetriever({ lookup: lookupOf(kb), embedders: [embedder], stores: [store] });

  it("returns the best chunks with their source and the store that answered", async () => {
    const result = await retriever.retrieve("handbook", "how are rate limits retried?", 2, signal());
    expect(result.store).toBe("exact-memory");
    expect(result.chunks).toHaveLength(2);
    expect(result.chunks[0]?.source).toMatchObject({ title: "Retries", chunkIndex: 0 });
    expect(result.chunks[0]?.score).toBeGreaterThan(result.chunks[1]?.score ?? 1);
  });

  it("answers a Korean question from the Korean document", async () => {
    const result = await retriever.retrieve("handbook", "검색 강도와 top_k", 1, signal());
    expect(result.chunks[0]?.source.title).toBe("한국어");
  });

  it("returns no chunks for an empty query", async () => {
    expect(await retriever.retrieve("handbook", "  ", 3, signal())).toEqual({ chunks: [], store: "exact-memory" });
  });

  it("fails with KNOWLEDGE_BASE_NOT_FOUND for an unknown name", async () => {
    await expect(retriever.retrieve("nope", "q", 3, signal())).rejects.toMatchObject({ code: "KNOWLEDGE_BASE_NOT_FOUND", message: expect.stringContaining('"nope"') });
  });

  it("refuses to search with another embedding model", async () => {
    const mistralKb = { ...kb, embeddingModel: "mistral-embed", dimension: 1024 };
    const mismatched = new KnowledgeBaseRetriever({ lookup: lookupOf(mistralKb), embedders: [embedder], stores: [store] });
    await expect(mismatched.retrieve("handbook", "q", 3, signal())).rejects.toMatchObject({
      code: "EMBEDDING_MODEL_MISMATCH",
      message: expect.stringContaining("mistral-embed"),
    });
  });

  it("fails with RETRIEVAL_FAILED naming the store when the store is down", async () => {
    const down = new WeaviateVectorStore({ url: "http://127.0.0.1:9", grpcPort: 9 });
    const weaviateKb = { ...kb, store: "weaviate" };
    const failing = new KnowledgeBaseRetriever({ lookup: lookupOf(weaviateKb), embedders: [embedder], stores: [down] });
    await expect(failing.retrieve("handbook", "q", 3, signal())).rejects.toMatchObject({
      code: "RETRIEVAL_FAILED",
      details: expect.objectContaining({ store: "weaviate", causeCode: "VECTOR_STORE_UNAVAILABLE" }),
    });
  });

  it("fails clearly when the knowledge base's store is not configured", async () => {
    const elsewhere = new KnowledgeBaseRetriever({ lookup: lookupOf({ ...kb, store: "weaviate" }), embedders: [embedder], stores: [store] });
    await expect(elsewhere.retrieve("handbook", "q", 3, signal())).rejects.toMatchObject({ code: "VECTOR_STORE_NOT_CONFIGURED" });
  });

  it("passes cancellation through untouched", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(retriever.retrieve("handbook", "q", 3, controller.signal)).rejects.toMatchObject({ name: "AbortError" });
  });
});

describe("KnowledgeBaseRetriever.search and neighbours (retrieve and expand nodes)", () => {
  const retriever = new KnowledgeBaseRetriever({ lookup: lookupOf(kb), embedders: [embedder], stores: [store] });
  const titles = (result: { chunks: { source: { title: string } }[] }) => result.chunks.map((chunk) => chunk.source.title);

  it("merges several queries by chunk, each chunk once with its best score", async () => {
    const result = await retriever.search("handbook", { queries: ["how are rate limits retried?", "how are nodes connected in the editor?"], topK: 5 }, signal());
    expect(new Set(titles(result))).toEqual(new Set(["Retries", "Editor", "한국어"]));
    expect(new Set(result.chunks.map((chunk) => chunk.id)).size).toBe(result.chunks.length);
    const retries = await retriever.retrieve("handbook", "how are rate limits retried?", 5, signal());
    const best = (id: string, hits: { id: string; score: number }[]) => hits.find((hit) => hit.id === id)?.score ?? 0;
    for (const chunk of result.chunks) expect(chunk.score).toBeGreaterThanOrEqual(best(chunk.id, retries.chunks) - 1e-9);
  });

  it("applies a filter to every query and ignores blank queries", async () => {
    const result = await retriever.search("handbook", { queries: ["retried", " ", "editor"], topK: 5, filter: { source: "Editor" } }, signal());
    expect(titles(result)).toEqual(["Editor"]);
    expect(await retriever.search("handbook", { queries: ["", " "], topK: 5 }, signal())).toEqual({ chunks: [], store: "exact-memory" });
  });

  it("reports a malformed filter as the caller's INVALID_VECTOR_QUERY, not a store failure", async () => {
    await expect(retriever.search("handbook", { queries: ["q"], topK: 3, filter: { page: { gte: 3, lte: 1 } } }, signal())).rejects.toMatchObject({ code: "INVALID_VECTOR_QUERY" });
  });

  it("returns a chunk's neighbours in its own document", async () => {
    const [hit] = (await retriever.retrieve("handbook", "Nodes are connected by dragging", 1, signal())).chunks;
    const around = await retriever.neighbours("handbook", [{ documentId: hit!.source.documentId, chunkIndex: hit!.source.chunkIndex }], 1, signal());
    expect(around.store).toBe("exact-memory");
    expect(around.chunks.length).toBeGreaterThanOrEqual(1);
    for (const chunk of around.chunks) expect(chunk.source.documentId).toBe(hit!.source.documentId);
    expect(around.chunks.map((chunk) => chunk.id)).toContain(hit!.id);
    expect(await retriever.neighbours("handbook", [], 1, signal())).toEqual({ chunks: [], store: "exact-memory" });
  });

  it("fails neighbour lookups of unknown knowledge bases and down stores like searches", async () => {
    await expect(retriever.neighbours("nope", [{ documentId: "d", chunkIndex: 0 }], 1, signal())).rejects.toMatchObject({ code: "KNOWLEDGE_BASE_NOT_FOUND" });
    const down = new WeaviateVectorStore({ url: "http://127.0.0.1:9", grpcPort: 9 });
    const failing = new KnowledgeBaseRetriever({ lookup: lookupOf({ ...kb, store: "weaviate" }), embedders: [embedder], stores: [down] });
    await expect(failing.neighbours("handbook", [{ documentId: "d", chunkIndex: 0 }], 1, signal())).rejects.toMatchObject({ code: "RETRIEVAL_FAILED", details: expect.objectContaining({ store: "weaviate" }) });
  });
});
