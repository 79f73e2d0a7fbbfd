import { LocalEmbedder, LOCAL_EMBEDDER_MODEL } from "@weft/providers";
import { pdfWithText } from "@weft/providers/testing";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgvectorVectorStore } from "../../retrieval/pgvector-vector-store.js";
import { createKnowledgeBaseCollection } from "../../retrieval/ingestion.service.js";
import { knowledgeBaseCollection } from "../../retrieval/knowledge-base-record.js";
import { openTestDatabase, type TestDatabase } from "../../testing/database.js";
import { DocumentIndexer } from "./document-indexer.js";
import { toIndexSettings } from "./knowledge-base.mapper.js";
import type { RetrievalSetup } from "./retrieval-setup.js";

const embedder = new LocalEmbedder();
const sentence = (i: number) => `Sentence ${i} talks about retries, backoff and rate limits.`;
const longText = Array.from({ length: 40 }, (_, i) => sentence(i)).join(" ");

let db: TestDatabase;
beforeAll(async () => {
  db = await openTestDatabase("embedded");
}, 120_000);
afterAll(async () => {
  await db.close();
});

/** pgvector with every withIndexSuspended call recorded, and whether the HNSW index existed inside it. */
function spiedStore(): { store: PgvectorVectorStore; loads: { indexDuringLoad: number }[] } {
  const store = new PgvectorVectorStore(db.raw);
  const loads: { indexDuringLoad: number }[] = [];
  const original = store.withIndexSuspended.bind(store);
  store.withIndexSuspended = (async (collection: string, work: () => Promise<unknown>) =>
    original(collection, async () => {
      loads.push({ indexDuringLoad: await hnswIndexes() });
      return work();
    })) as typeof store.withIndexSuspended;
  return { store, loads };
}

/** An empty pgvector knowledge base (chunks of 300 characters) and an indexer on the spied store. */
async function spiedKnowledgeBase(name: string) {
  const { store, loads } = spiedStore();
  const setup: RetrievalSetup = { embedder, store, embedders: [embedder], stores: [store], alpha: 0.75, unavailable: null, semanticCache: null, semanticCacheStore: null, close: async () => undefined };
  const indexer = new DocumentIndexer(db.prisma, setup, null, pino({ level: "silent" }));
  const row = await db.prisma.knowledgeBase.create({
    data: { name, embeddingModel: LOCAL_EMBEDDER_MODEL, dimension: 512, store: store.id, chunkSize: 300, chunkOverlap: 50 },
  });
  const kb = toIndexSettings(row);
  await createKnowledgeBaseCollection(kb, store);
  return { store, loads, indexer, row, kb };
}

async function hnswIndexes(): Promise<number> {
  const { rows } = await db.raw.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_indexes WHERE indexname LIKE '%_hnsw'");
  return rows[0]?.n ?? -1;
}

async function addPending(knowledgeBaseId: string, documents: { title: string; content: string }[]): Promise<void> {
  for (const [index, document] of documents.entries()) {
    await db.prisma.document.create({ data: { knowledgeBaseId, ...document, contentHash: `${document.title}-${index}` } });
  }
}

describe("the document indexer on pgvector", () => {
  it("loads a large first pass without the HNSW index and builds it once; a small addition keeps the index live", async () => {
    const { store, loads, indexer, row, kb } = await spiedKnowledgeBase("bulk");
    // ~300 chunks of 300 characters: over the bulk-load threshold on an empty collection.
    await addPending(row.id, Array.from({ length: 8 }, (_, d) => ({ title: `part ${d}.txt`, content: `${longText} Part ${d}. `.repeat(5) })));
    await indexer.run(row.id, new AbortController().signal);
    expect(loads).toEqual([{ indexDuringLoad: 0 }]);
    const stored = await store.countChunks(knowledgeBaseCollection(kb));
    expect(stored).toBeGreaterThanOrEqual(256);
    const ready = await db.prisma.document.aggregate({ where: { knowledgeBaseId: row.id, status: "READY" }, _sum: { chunkCount: true }, _count: true });
    expect([ready._count, ready._sum.chunkCount]).toEqual([8, stored]);

    await addPending(row.id, [{ title: "한국어.txt", content: "검색 강도에 따라 top_k가 정해집니다." }]);
    await indexer.run(row.id, new AbortController().signal);
    expect(loads).toHaveLength(1);
    expect(await hnswIndexes()).toBe(1);
    const [hit] = await store.search(knowledgeBaseCollection(kb), { vector: embedder.embedOne("검색 강도"), topK: 1 });
    expect(hit?.source.title).toBe("한국어.txt");
  }, 120_000);

  it("counts a pending PDF's text (extracted first) when deciding to load without the HNSW index", async () => {
    const { store, loads, indexer, row, kb } = await spiedKnowledgeBase("pdf-bulk");
    // 60 pages of ~1,000 characters: ~240 chunks of text, though the stored file has no text yet.
    const pdf = await pdfWithText(Array.from({ length: 60 }, (_, page) => Array.from({ length: 16 }, (_, line) => `Page ${page + 1}, line ${line}: ${sentence(line)}`)));
    await db.prisma.document.create({ data: { knowledgeBaseId: row.id, title: "manual.pdf", content: "", mimeType: "application/pdf", source: Buffer.from(pdf), contentHash: "manual.pdf" } });
    // Other tests' collections keep their indexes: this one's is the one missing during the load.
    const indexesBefore = await hnswIndexes();
    await indexer.run(row.id, new AbortController().signal);
    expect(loads).toEqual([{ indexDuringLoad: indexesBefore - 1 }]);
    expect(await hnswIndexes()).toBe(indexesBefore);
    const document = await db.prisma.document.findFirstOrThrow({ where: { knowledgeBaseId: row.id } });
    expect(document).toMatchObject({ status: "READY", source: null });
    expect(document.chunkCount).toBeGreaterThanOrEqual(256);
    expect(await store.countChunks(knowledgeBaseCollection(kb))).toBe(document.chunkCount);
  }, 120_000);

  it("takes over a document that a pass killed mid-document left INDEXING: indexed again, READY, its chunks once", async () => {
    const store = new PgvectorVectorStore(db.raw);
    const setup: RetrievalSetup = { embedder, store, embedders: [embedder], stores: [store], alpha: 0.75, unavailable: null, semanticCache: null, semanticCacheStore: null, close: async () => undefined };
    const indexer = new DocumentIndexer(db.prisma, setup, null, pino({ level: "silent" }));
    const row = await db.prisma.knowledgeBase.create({
      data: { name: "killed", embeddingModel: LOCAL_EMBEDDER_MODEL, dimension: 512, store: store.id, chunkSize: 120, chunkOverlap: 20 },
    });
    const kb = toIndexSettings(row);
    await createKnowledgeBaseCollection(kb, store);
    await addPending(row.id, [{ title: "retries.txt", content: longText }]);
    await indexer.run(row.id, new AbortController().signal);
    const indexed = await db.prisma.document.findFirstOrThrow({ where: { knowledgeBaseId: row.id } });
    expect(indexed.status).toBe("READY");

    // As a process killed while re-indexing it leaves it: INDEXING, its chunks in the store, no pass anywhere.
    await db.prisma.document.update({ where: { id: indexed.id }, data: { status: "INDEXING", chunkCount: 0 } });
    await indexer.run(row.id, new AbortController().signal);
    const again = await db.prisma.document.findUniqueOrThrow({ where: { id: indexed.id } });
    expect(again.status).toBe("READY");
    expect(again.chunkCount).toBe(indexed.chunkCount);
    expect(await store.countChunks(knowledgeBaseCollection(kb))).toBe(indexed.chunkCount);
  }, 120_000);
});
