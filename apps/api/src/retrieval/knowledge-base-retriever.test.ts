import { ExactVectorStore, LocalEmbedder, LOCAL_EMBEDDER_MODEL, WeaviateVectorStore } from "@weft/providers";
import { beforeAll, describe, expect, it } from "vitest";
import { MemoryDocuments } from "./ingestion.test-helpers.js";
import { ingestDocuments, type KnowledgeBaseIndexSettings } from "./ingestion.service.js";
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
  await ingestDocuments(
    kb,
    [
      { title: "Retries", content: "Transient provider errors are retried with exponential backoff. A 429 answer honours Retry-After." },
      { title: "Editor", content: "The editor draws the workflow graph. Nodes are connected by dragging from handle to handle." },
      { title: "한국어", content: "지식 베이스는 문서를 청크로 나누어 임베딩합니다. 검색 강도에 따라 top_k가 정해집니다." },
    ],
    { store, embedders: [embedder], persistence: new MemoryDocuments() },
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
