import { readFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite/vector";
import { WeftError } from "@weft/engine";
import { ExactVectorStore, LocalEmbedder, LOCAL_EMBEDDER_MODEL } from "@weft/providers";
import { beforeEach, describe, expect, it } from "vitest";
import { failingOnUpsert, MemoryDocuments } from "./ingestion.test-helpers.js";
import { ingestDocuments, reindexKnowledgeBase, type IngestionProgress, type KnowledgeBaseIndexSettings } from "./ingestion.service.js";
import { knowledgeBaseCollection } from "./knowledge-base-record.js";
import { pgliteRawSql } from "../db/raw-sql.js";
import { PgvectorVectorStore } from "./pgvector-vector-store.js";

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

let store: ExactVectorStore;
let documents: MemoryDocuments;

async function storedChunkCount(documentId: string): Promise<number> {
  const hits = await store.search(collection, { vector: embedder.embedOne("retries"), topK: 1000, filter: { documentId } });
  return hits.length;
}

beforeEach(() => {
  store = new ExactVectorStore();
  documents = new MemoryDocuments();
});

describe("ingestDocuments", () => {
  it("chunks, embeds and stores each document and marks it READY", async () => {
    const [outcome] = await ingestDocuments(kb, [{ title: "guide.md", content: fixture("query-flow.ko.md") }], { store, embedders: [embedder], persistence: documents });
    expect(outcome).toMatchObject({ status: "READY", title: "guide.md" });
    const id = outcome?.status === "READY" ? outcome.documentId : "";
    expect(documents.rows.get(id)).toMatchObject({ status: "READY", mimeType: "text/markdown", chunkCount: outcome?.status === "READY" ? outcome.chunkCount : -1 });
    expect(await storedChunkCount(id)).toBe(outcome?.status === "READY" ? outcome.chunkCount : -1);
  });

  it("finds a Korean passage by a Korean question", async () => {
    await ingestDocuments(
      kb,
      [
        { title: "query-flow.md", content: fixture("query-flow.ko.md") },
        { title: "codeweaver.txt", content: fixture("codeweaver.ko.txt") },
      ],
      { store, embedders: [embedder], persistence: documents },
    );
    const [hit] = await store.search(collection, { vector: embedder.embedOne("Qdrant 캐시 임베딩은 무엇으로 생성하나요?"), topK: 1 });
    expect(hit?.source.title).toBe("codeweaver.txt");
  });

  it("reports a document with the same content as a duplicate, also within one request", async () => {
    const first = await ingestDocuments(kb, [{ title: "a.txt", content: "Same words.\n" }], { store, embedders: [embedder], persistence: documents });
    const again = await ingestDocuments(
      kb,
      [
        { title: "b.txt", content: "Same words.\r\n" },
        { title: "c.txt", content: "Other words." },
        { title: "d.txt", content: "Other words." },
      ],
      { store, embedders: [embedder], persistence: documents },
    );
    const firstId = first[0]?.status === "READY" ? first[0].documentId : "";
    expect(again.map((o) => o.status)).toEqual(["DUPLICATE", "READY", "DUPLICATE"]);
    expect(again[0]).toMatchObject({ duplicateOf: { id: firstId, title: "a.txt" } });
    expect(again[2]).toMatchObject({ duplicateOf: { title: "c.txt" } });
    expect(documents.rows.size).toBe(2);
  });

  it("reports a document stored by another request between the duplicate check and the insert as a duplicate", async () => {
    // The other request's row appears after our check: the unique index refuses our insert.
    const racing = Object.assign(Object.create(documents) as MemoryDocuments, {
      findByContentHash: async (knowledgeBaseId: string, contentHash: string) => {
        racing.checks += 1;
        return racing.checks === 1 ? null : documents.findByContentHash(knowledgeBaseId, contentHash);
      },
      createDocument: async (knowledgeBaseId: string, document: Parameters<MemoryDocuments["createDocument"]>[1]) => {
        await documents.createDocument(knowledgeBaseId, { ...document, title: "other request.txt" });
        throw new WeftError("DUPLICATE_DOCUMENT", `"${document.title}" was added by another request at the same time`);
      },
      checks: 0,
    });
    const [outcome] = await ingestDocuments(kb, [{ title: "mine.txt", content: "Same words." }], { store, embedders: [embedder], persistence: racing });
    expect(outcome).toMatchObject({ status: "DUPLICATE", title: "mine.txt", duplicateOf: { title: "other request.txt" } });
    expect(documents.rows.size).toBe(1);
  });

  it("removes every stored chunk of a document whose indexing fails midway", async () => {
    const failing = failingOnUpsert(store, 2);
    const [outcome] = await ingestDocuments(kb, [{ title: "long.txt", content: longText }], {
      store: failing,
      embedders: [embedder],
      persistence: documents,
      embedBatchSize: 2,
    });
    expect(outcome).toMatchObject({ status: "FAILED", code: "INGESTION_FAILED", message: "disk full" });
    const id = outcome?.status === "FAILED" ? (outcome.documentId ?? "") : "";
    expect(failing.upserted[0]?.length).toBe(2);
    expect(await storedChunkCount(id)).toBe(0);
    expect(documents.rows.get(id)).toMatchObject({ status: "FAILED", error: "INGESTION_FAILED: disk full" });
  });

  it("reports INGESTION_CLEANUP_FAILED when the partial chunks cannot be removed either", async () => {
    const failing = failingOnUpsert(store, 2);
    failing.deleteDocument = () => Promise.reject(new Error("store went away"));
    const [outcome] = await ingestDocuments(kb, [{ title: "long.txt", content: longText }], { store: failing, embedders: [embedder], persistence: documents, embedBatchSize: 2 });
    expect(outcome).toMatchObject({ status: "FAILED", code: "INGESTION_CLEANUP_FAILED", message: expect.stringContaining("store went away") });
  });

  it("stops at the next document when cancelled, removing the cancelled document's chunks", async () => {
    const controller = new AbortController();
    const pending = ingestDocuments(kb, [{ title: "long.txt", content: longText }, { title: "later.txt", content: "Never started." }], {
      store,
      embedders: [embedder],
      persistence: documents,
      embedBatchSize: 2,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.phase === "embedding" && p.chunksDone === 2) controller.abort();
      },
    });
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    const rows = [...documents.rows.values()];
    expect(rows.map((r) => [r.title, r.status])).toEqual([["long.txt", "FAILED"]]);
    expect(rows[0]?.error).toMatch(/^INGESTION_CANCELLED/);
    expect(await storedChunkCount(rows[0]?.id ?? "")).toBe(0);
  });

  it("refuses bad documents one by one with a code, and indexes the good ones", async () => {
    const outcomes = await ingestDocuments(
      kb,
      [
        { title: "empty.txt", content: "  \n " },
        { title: "slides.pdf", content: "x", mimeType: "application/pdf" },
        { title: "bytes.bin", content: Buffer.from([0xff, 0xfe, 0x00]).toString("base64"), encoding: "BASE64" },
        { title: "file.md", content: Buffer.from("# 제목\n\n본문입니다.").toString("base64"), encoding: "BASE64" },
      ],
      { store, embedders: [embedder], persistence: documents },
    );
    expect(outcomes.map((o) => (o.status === "FAILED" ? o.code : o.status))).toEqual([
      "EMPTY_DOCUMENT",
      "UNSUPPORTED_DOCUMENT_TYPE",
      "INVALID_DOCUMENT_ENCODING",
      "READY",
    ]);
    expect(documents.rows.size).toBe(1);
  });

  it("reports progress per document through every phase", async () => {
    const progress: IngestionProgress[] = [];
    await ingestDocuments(kb, [{ title: "long.txt", content: longText }, { title: "short.txt", content: "Short." }], {
      store,
      embedders: [embedder],
      persistence: documents,
      embedBatchSize: 4,
      onProgress: (p) => progress.push(p),
    });
    const phases = (index: number) => progress.filter((p) => p.documentIndex === index).map((p) => p.phase);
    expect(phases(0)[0]).toBe("chunking");
    expect(phases(0).filter((p) => p === "embedding").length).toBeGreaterThan(1);
    expect(phases(0).at(-1)).toBe("ready");
    expect(phases(1)).toEqual(["chunking", "embedding", "ready"]);
    expect(progress.every((p) => p.documentCount === 2)).toBe(true);
  });

  it("refuses to ingest with another embedding model", async () => {
    const other = new LocalEmbedder({ dimension: 256 });
    await expect(ingestDocuments(kb, [{ title: "a.txt", content: "text" }], { store, embedders: [other], persistence: documents })).rejects.toMatchObject({
      code: "EMBEDDING_MODEL_MISMATCH",
      message: expect.stringContaining(LOCAL_EMBEDDER_MODEL),
    });
    expect(documents.rows.size).toBe(0);
  });

  it("refuses more documents than the per-request limit", async () => {
    const many = Array.from({ length: 101 }, (_, i) => ({ title: `${i}.txt`, content: `${i}` }));
    await expect(ingestDocuments(kb, many, { store, embedders: [embedder], persistence: documents })).rejects.toMatchObject({ code: "TOO_MANY_DOCUMENTS" });
  });
});

describe("reindexKnowledgeBase", () => {
  it("rebuilds the vectors with a new embedder and records its model", async () => {
    await ingestDocuments(kb, [{ title: "long.txt", content: longText }], { store, embedders: [embedder], persistence: documents });
    const next = new LocalEmbedder({ dimension: 256 });
    const recorded: unknown[] = [];
    const outcomes = await reindexKnowledgeBase(kb, {
      store,
      embedder: next,
      persistence: documents,
      listDocuments: (id) => documents.listDocuments(id),
      setEmbedding: async (...args) => void recorded.push(args),
    });
    expect(outcomes.map((o) => o.status)).toEqual(["READY"]);
    expect(recorded).toEqual([["kb1", next.model, 256]]);
    const hits = await store.search(collection, { vector: next.embedOne("backoff"), topK: 3 });
    expect(hits).toHaveLength(3);
  });
});

describe("reindexKnowledgeBase on pgvector", () => {
  it("rebuilds with the index built once and searches find the documents again", async () => {
    const db = await PGlite.create({ extensions: { vector } });
    const pg = new PgvectorVectorStore(pgliteRawSql(db));
    const pgKb = { ...kb, store: "pgvector" };
    await ingestDocuments(pgKb, [{ title: "long.txt", content: longText }, { title: "한국어.txt", content: "검색 강도에 따라 top_k가 정해집니다." }], { store: pg, embedders: [embedder], persistence: documents });
    const outcomes = await reindexKnowledgeBase(pgKb, {
      store: pg,
      embedder,
      persistence: documents,
      listDocuments: (id) => documents.listDocuments(id),
      setEmbedding: async () => undefined,
    });
    expect(outcomes.map((o) => o.status)).toEqual(["READY", "READY"]);
    const [hit] = await pg.search(collection, { vector: embedder.embedOne("검색 강도"), topK: 1 });
    expect(hit?.source.title).toBe("한국어.txt");
    const indexes = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_indexes WHERE indexname LIKE '%_hnsw'");
    expect(indexes.rows[0]?.n).toBe(1);
    await db.close();
  }, 60_000);
});

describe("ingestDocuments on pgvector", () => {
  /** Records each withIndexSuspended call and whether the HNSW index existed while inside it. */
  function suspendSpy(pg: PgvectorVectorStore, db: PGlite) {
    const calls: { indexDuringLoad: number }[] = [];
    const original = pg.withIndexSuspended.bind(pg);
    pg.withIndexSuspended = (async (name: string, work: () => Promise<unknown>) =>
      original(name, async () => {
        const during = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_indexes WHERE indexname LIKE '%_hnsw'");
        calls.push({ indexDuringLoad: during.rows[0]?.n ?? -1 });
        return work();
      })) as typeof pg.withIndexSuspended;
    return calls;
  }

  it("loads a large first batch without the HNSW index and builds it once; a small addition keeps the index live", async () => {
    const db = await PGlite.create({ extensions: { vector } });
    const pg = new PgvectorVectorStore(pgliteRawSql(db));
    const pgKb = { ...kb, store: "pgvector" };
    const calls = suspendSpy(pg, db);
    // ~300 chunks of 300 characters: over the bulk-load threshold on an empty collection.
    const big = Array.from({ length: 8 }, (_, d) => ({ title: `part ${d}.txt`, content: `${longText} Part ${d}. `.repeat(5) }));
    const first = await ingestDocuments(pgKb, big, { store: pg, embedders: [embedder], persistence: documents });
    expect(first.every((outcome) => outcome.status === "READY")).toBe(true);
    expect(calls).toEqual([{ indexDuringLoad: 0 }]);
    const stored = await pg.countChunks(collection);
    expect(stored).toBe(first.reduce((sum, outcome) => sum + (outcome.status === "READY" ? outcome.chunkCount : 0), 0));
    expect(stored).toBeGreaterThanOrEqual(256);

    await ingestDocuments(pgKb, [{ title: "한국어.txt", content: "검색 강도에 따라 top_k가 정해집니다." }], { store: pg, embedders: [embedder], persistence: documents });
    expect(calls).toHaveLength(1);
    const indexes = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_indexes WHERE indexname LIKE '%_hnsw'");
    expect(indexes.rows[0]?.n).toBe(1);
    const [hit] = await pg.search(collection, { vector: embedder.embedOne("검색 강도"), topK: 1 });
    expect(hit?.source.title).toBe("한국어.txt");
    await db.close();
  }, 120_000);
});
