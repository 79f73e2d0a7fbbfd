import { WeftError, type Embedder, type VectorStore } from "@weft/engine";

/** What retrieval and ingestion need to know about a knowledge base (a subset of the Prisma row). */
export interface KnowledgeBaseRecord {
  id: string;
  name: string;
  /** The embedder's model id recorded at creation ("weft-local-hash-v1", "mistral-embed"). */
  embeddingModel: string;
  dimension: number;
  /** The vector store's id ("pgvector", "weaviate"). */
  store: string;
}

export type RetrievalErrorCode = "KNOWLEDGE_BASE_NOT_FOUND" | "EMBEDDING_MODEL_MISMATCH" | "VECTOR_STORE_NOT_CONFIGURED" | "RETRIEVAL_FAILED";

/** The vector-store collection of a knowledge base: keyed by id, so renaming a knowledge base moves nothing. */
export function knowledgeBaseCollection(kb: Pick<KnowledgeBaseRecord, "id">): string {
  return `kb_${kb.id}`;
}

export function knowledgeBaseNotFound(name: string): WeftError {
  return new WeftError("KNOWLEDGE_BASE_NOT_FOUND", `Knowledge base "${name}" does not exist.`, { details: { knowledgeBase: name } });
}

/**
 * The embedder whose model and dimension match the knowledge base. Vectors from different models live
 * in different spaces: mixing them would return confident nonsense, so a mismatch is refused.
 */
export function embedderFor(kb: KnowledgeBaseRecord, embedders: readonly Embedder[]): Embedder {
  const match = embedders.find((embedder) => embedder.model === kb.embeddingModel && embedder.dimension === kb.dimension);
  if (match) return match;
  const available = embedders.map((embedder) => `${embedder.model} (${embedder.dimension})`).join(", ") || "none";
  throw new WeftError(
    "EMBEDDING_MODEL_MISMATCH",
    `Knowledge base "${kb.name}" was indexed with ${kb.embeddingModel} (${kb.dimension} dimensions), but the configured embedders are: ${available}. ` +
      "Configure that embedder again, or re-index the knowledge base with the current one.",
    { details: { knowledgeBase: kb.name, embeddingModel: kb.embeddingModel, dimension: kb.dimension } },
  );
}

export function storeFor(kb: KnowledgeBaseRecord, stores: readonly VectorStore[]): VectorStore {
  const store = stores.find((candidate) => candidate.id === kb.store);
  if (store) return store;
  throw new WeftError(
    "VECTOR_STORE_NOT_CONFIGURED",
    `Knowledge base "${kb.name}" lives in the ${kb.store} vector store, which is not configured here (configured: ${stores.map((s) => s.id).join(", ") || "none"}).`,
    { audience: "operational", details: { knowledgeBase: kb.name, store: kb.store } },
  );
}
