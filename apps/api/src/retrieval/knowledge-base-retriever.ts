import { isAbortError, WeftError, type Embedder, type RetrievalResult, type Retriever, type VectorStore } from "@weft/engine";
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
 * What a model node calls to fill `{context}`: embeds the node's input_data with the knowledge base's
 * own embedding model and searches its collection. A missing knowledge base is KNOWLEDGE_BASE_NOT_FOUND,
 * another embedding model EMBEDDING_MODEL_MISMATCH; any failure of the embedder or the store is
 * RETRIEVAL_FAILED naming the store.
 */
export class KnowledgeBaseRetriever implements Retriever {
  constructor(private readonly options: KnowledgeBaseRetrieverOptions) {}

  async retrieve(knowledgeBase: string, query: string, topK: number, signal: AbortSignal): Promise<RetrievalResult> {
    const kb = await this.options.lookup(knowledgeBase);
    if (!kb) throw knowledgeBaseNotFound(knowledgeBase);
    const embedder = embedderFor(kb, this.options.embedders);
    const store = storeFor(kb, this.options.stores);
    if (query.trim() === "") return { chunks: [], store: store.id };
    try {
      const [vector] = await embedder.embed([query], signal);
      if (!vector) throw new Error(`the embedder ${embedder.model} returned no vector`);
      const chunks = await store.search(
        knowledgeBaseCollection(kb),
        { vector, text: query, topK, alpha: this.options.alpha ?? 0.75 },
        signal,
      );
      return { chunks, store: store.id };
    } catch (error) {
      if (isAbortError(error)) throw error;
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
