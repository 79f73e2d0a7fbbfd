import type { StoredChunk, VectorStore } from "@weft/engine";
import type { PreparedDocument } from "./document-content.js";
import type { DocumentPersistence, StoredDocument } from "./ingestion.service.js";

/** Document rows kept in memory, shaped like the Prisma Document model. */
export class MemoryDocuments implements DocumentPersistence {
  readonly rows = new Map<string, StoredDocument & { knowledgeBaseId: string; contentHash: string; status: string; chunkCount: number; error: string | null }>();
  private next = 1;

  async findByContentHash(knowledgeBaseId: string, contentHash: string) {
    const row = [...this.rows.values()].find((r) => r.knowledgeBaseId === knowledgeBaseId && r.contentHash === contentHash);
    return row ? { id: row.id, title: row.title } : null;
  }

  async createDocument(knowledgeBaseId: string, document: PreparedDocument) {
    const id = `doc-${this.next++}`;
    this.rows.set(id, { id, knowledgeBaseId, ...document, status: "INDEXING", chunkCount: 0, error: null });
    return { id };
  }

  async markIndexing(id: string) {
    this.update(id, { status: "INDEXING", error: null });
  }

  async markReady(id: string, chunkCount: number) {
    this.update(id, { status: "READY", chunkCount });
  }

  async markFailed(id: string, error: string) {
    this.update(id, { status: "FAILED", error, chunkCount: 0 });
  }

  async listDocuments(knowledgeBaseId: string): Promise<StoredDocument[]> {
    return [...this.rows.values()].filter((r) => r.knowledgeBaseId === knowledgeBaseId);
  }

  private update(id: string, change: Partial<{ status: string; chunkCount: number; error: string | null }>) {
    const row = this.rows.get(id);
    if (!row) throw new Error(`no document ${id}`);
    Object.assign(row, change);
  }
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
