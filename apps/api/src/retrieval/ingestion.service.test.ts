import { readFileSync } from "node:fs";
import { ExactVectorStore, LocalEmbedder, LOCAL_EMBEDDER_MODEL } from "@weft/providers";
import { beforeEach, describe, expect, it } from "vitest";
import { prepareDocument } from "./document-content.js";
import { failingOnUpsert, indexDocuments } from "./ingestion.test-helpers.js";
import { createKnowledgeBaseCollection, indexDocument, type IngestionPhase, type KnowledgeBaseIndexSettings } from "./ingestion.service.js";
import { embedderFor, knowledgeBaseCollection } from "./knowledge-base-record.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
const embedder = new LocalEmbedder();
const kb: KnowledgeBaseIndexSettings = {
  id: "kb1",
  name: "docs",
  embeddingModel: LOCAL_EMBEDDER_MODEL,
  dimension: 512,
  store: "exact-memory",
  chunkSize: 300,
  chunkOverlap: 50,
};
const collection = knowledgeBaseCollection(kb);
const longText = Array.from({ length: 40 }, (_, i) => `Sentence ${i} talks about retries, backoff and rate limits.`).join(" ");
const longDocument = await prepareDocument({ title: "long.txt", content: longText });

let store: ExactVectorStore;

async function storedChunkCount(documentId: string): Promise<number> {
  const hits = await store.search(collection, { vector: embedder.embedOne("retries"), topK: 1000, filter: { documentId } });
  return hits.length;
}

beforeEach(async () => {
  store = new ExactVectorStore();
  await createKnowledgeBaseCollection(kb, store);
});

describe("indexDocument", () => {
  it("chunks, embeds and stores a document, Markdown headings included, and returns its chunk count", async () => {
    const document = await prepareDocument({ title: "guide.md", content: fixture("query-flow.ko.md") });
    const count = await indexDocument({ kb, documentId: "d1", document, report: () => undefined }, embedder, { store });
    expect(count).toBeGreaterThan(0);
    expect(await storedChunkCount("d1")).toBe(count);
  });

  it("finds a Korean passage by a Korean question", async () => {
    await indexDocuments(kb, [{ title: "query-flow.md", content: fixture("query-flow.ko.md") }, { title: "codeweaver.txt", content: fixture("codeweaver.ko.txt") }], store, embedder);
    const [hit] = await store.search(collection, { vector: embedder.embedOne("Qdrant 캐시 임베딩은 무엇으로 생성하나요?"), topK: 1 });
    expect(hit?.source.title).toBe("codeweaver.txt");
  });

  it("removes every stored chunk of a document whose indexing fails midway, and rethrows", async () => {
    const failing = failingOnUpsert(store, 2);
    const indexing = indexDocument({ kb, documentId: "d1", document: longDocument, report: () => undefined }, embedder, { store: failing, embedBatchSize: 2 });
    await expect(indexing).rejects.toThrow("disk full");
    expect(failing.upserted[0]?.length).toBe(2);
    expect(await storedChunkCount("d1")).toBe(0);
  });

  it("reports INGESTION_CLEANUP_FAILED when the partial chunks cannot be removed either", async () => {
    const failing = failingOnUpsert(store, 2);
    failing.deleteDocument = () => Promise.reject(new Error("store went away"));
    const indexing = indexDocument({ kb, documentId: "d1", document: longDocument, report: () => undefined }, embedder, { store: failing, embedBatchSize: 2 });
    // Both failures are kept: why indexing stopped, and why its chunks could not be removed.
    await expect(indexing).rejects.toMatchObject({
      code: "INGESTION_CLEANUP_FAILED",
      message: expect.stringMatching(/failed \(disk full\) and its partial chunks could not be removed \(store went away\); re-index/),
    });
  });

  it("stops when cancelled and removes the chunks it had stored", async () => {
    const controller = new AbortController();
    const report = (phase: IngestionPhase, done: number) => {
      if (phase === "embedding" && done === 2) controller.abort();
    };
    const indexing = indexDocument({ kb, documentId: "d1", document: longDocument, report }, embedder, { store, embedBatchSize: 2, signal: controller.signal });
    await expect(indexing).rejects.toMatchObject({ name: "AbortError" });
    expect(await storedChunkCount("d1")).toBe(0);
  });

  it("reports chunking, then embedding batch by batch", async () => {
    const phases: [IngestionPhase, number, number][] = [];
    const count = await indexDocument(
      { kb, documentId: "d1", document: longDocument, report: (phase, done, total) => phases.push([phase, done, total]) },
      embedder,
      { store, embedBatchSize: 4 },
    );
    expect(phases[0]).toEqual(["chunking", 0, 0]);
    expect(phases.slice(1).map(([phase, done]) => [phase, done])).toEqual(
      Array.from({ length: Math.ceil(count / 4) }, (_, batch) => ["embedding", batch * 4]),
    );
  });
});

describe("embedderFor", () => {
  it("refuses to index or search with another embedding model, naming the one the knowledge base was built with", () => {
    expect(() => embedderFor(kb, [new LocalEmbedder({ dimension: 256 })])).toThrow(
      expect.objectContaining({ code: "EMBEDDING_MODEL_MISMATCH", message: expect.stringContaining(LOCAL_EMBEDDER_MODEL) }),
    );
    expect(embedderFor(kb, [embedder])).toBe(embedder);
  });
});
