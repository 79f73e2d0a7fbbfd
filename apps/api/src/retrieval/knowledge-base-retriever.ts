import {
  isAbortError,
  WeftError,
  type ChunkAnchor,
  type Embedder,
  type KnowledgeBaseQuery,
  type KnowledgeBaseSearch,
  type NeighbourResult,
  type RetrievalResult,
  type Retriever,
  type VectorStore,
} from "@weft/engine";
import { searchCollection } from "@weft/providers";
import { embedderFor, knowledgeBaseCollection, knowledgeBaseNotFound, storeFor, type KnowledgeBaseRecord } from "./knowledge-base-record.js";

export type KnowledgeBaseLookup = (name: string) => Promise<KnowledgeBaseRecord | null>;

export interface KnowledgeBaseRetrieverOptions {
  /** Finds a knowledge base by name (the API passes a Prisma query). */
  lookup: KnowledgeBaseLookup;
  /** Every configured embedder; the one matching the knowledge base's model is used. */
  embedders: readonly Embedder[];
  /** Every configured vector store; the knowledge base names its own. */
  stores: readonly VectorStore[];
  /** Hybrid weight for stores that fuse BM25 and vectors (Weaviate): 1 = vector only. Default 0.75. */
  alpha?: number;
}

/**
 * Knowledge bases by name, for model nodes (`retrieve(name, input_data, topK)` fills `{context}`) and
 * for `retrieve`/`expand` nodes (multi-query search with filters, neighbours): queries are embedded with
 * the knowledge base's own embedding model and searched in its own store. A missing knowledge base is
 * KNOWLEDGE_BASE_NOT_FOUND, another embedding model EMBEDDING_MODEL_MISMATCH; any failure of the embedder
 * or the store is RETRIEVAL_FAILED naming the store, with the store's own code as `causeCode`.
 */
export class KnowledgeBaseRetriever implements Retriever, KnowledgeBaseSearch {
  constructor(private readonly options: KnowledgeBaseRetrieverOptions) {}

  retrieve(knowledgeBase: string, query: string, topK: number, signal: AbortSignal): Promise<RetrievalResult> {
    return this.search(knowledgeBase, { queries: [query], topK }, signal);
  }

  async search(knowledgeBase: string, query: KnowledgeBaseQuery, signal: AbortSignal): Promise<RetrievalResult> {
    const { kb, store } = await this.resolve(knowledgeBase);
    const embedder = embedderFor(kb, this.options.embedders);
    const alpha = query.alpha ?? this.options.alpha ?? 0.75;
    return this.guard(kb, store, async () => ({
      chunks: await searchCollection(embedder, store, knowledgeBaseCollection(kb), { ...query, alpha }, signal),
      store: store.id,
    }));
  }

  async neighbours(knowledgeBase: string, anchors: readonly ChunkAnchor[], window: number, signal: AbortSignal): Promise<NeighbourResult> {
    const { kb, store } = await this.resolve(knowledgeBase);
    if (anchors.length === 0) return { chunks: [], store: store.id };
    return this.guard(kb, store, async () => ({ chunks: await store.neighbours(knowledgeBaseCollection(kb), anchors, window, signal), store: store.id }));
  }

  private async resolve(name: string): Promise<{ kb: KnowledgeBaseRecord; store: VectorStore }> {
    const kb = await this.options.lookup(name);
    if (!kb) throw knowledgeBaseNotFound(name);
    return { kb, store: storeFor(kb, this.options.stores) };
  }

  private async guard<T>(kb: KnowledgeBaseRecord, store: VectorStore, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      // A malformed query (a bad filter) is the caller's to fix, not a store failure.
      if (isAbortError(error) || (error instanceof WeftError && error.code === "INVALID_VECTOR_QUERY")) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      const code = error instanceof WeftError ? ` [${error.code}]` : "";
      throw new WeftError("RETRIEVAL_FAILED", `Searching knowledge base "${kb.name}" in ${store.id} failed${code}: ${reason}`, {
        audience: "operational",
        cause: error,
        details: { knowledgeBase: kb.name, store: store.id, ...(error instanceof WeftError ? { causeCode: error.code } : {}) },
      });
    }
  }
}
