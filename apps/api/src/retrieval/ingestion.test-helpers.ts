import type { StoredChunk, VectorStore } from "@weft/engine";
import type { LocalEmbedder } from "@weft/providers";
import { prepareDocument, type RawDocument } from "./document-content.js";
import { createKnowledgeBaseCollection, indexDocument, type KnowledgeBaseIndexSettings } from "./ingestion.service.js";

/**
 * Fills a knowledge base's collection the way the document indexer does (prepareDocument, then
 * indexDocument per document), for tests that need something to search. Documents get ids doc-1, doc-2, …
 */
export async function indexDocuments(kb: KnowledgeBaseIndexSettings, documents: readonly RawDocument[], store: VectorStore, embedder: LocalEmbedder): Promise<number[]> {
  await createKnowledgeBaseCollection(kb, store);
  const counts: number[] = [];
  for (const [index, raw] of documents.entries()) {
    const document = await prepareDocument(raw);
    counts.push(await indexDocument({ kb, documentId: `doc-${index + 1}`, document, report: () => undefined }, embedder, { store }));
  }
  return counts;
}

/** Wraps a store and fails the n-th upsert call, to check that failed ingestion leaves nothing behind. */
export function failingOnUpsert(store: VectorStore, failingCall: number): VectorStore & { upserted: StoredChunk[][] } {
  let calls = 0;
  const upserted: StoredChunk[][] = [];
  return {
    id: store.id,
    upserted,
    ensureCollection: (c, d) => store.ensureCollection(c, d),
    dropCollection: (c) => store.dropCollection(c),
    deleteDocument: (c, d) => store.deleteDocument(c, d),
    search: (c, q, s) => store.search(c, q, s),
    searchMany: (c, q, s) => store.searchMany(c, q, s),
    neighbours: (c, a, w, s) => store.neighbours(c, a, w, s),
    keywordSearch: store.keywordSearch,
    async upsert(collection, chunks) {
      calls++;
      if (calls === failingCall) throw Object.assign(new Error("disk full"), { code: "VECTOR_STORE_ERROR" });
      upserted.push([...chunks]);
      await store.upsert(collection, chunks);
    },
  };
}
