/** Interfaces for knowledge-base retrieval: embedders, vector stores, and the retriever the executor calls. */

export interface Embedder {
  /** Recorded on a knowledge base; queries with another embedder are refused. */
  readonly model: string;
  readonly dimension: number;
  embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]>;
}

export interface ChunkSource {
  documentId: string;
  title: string;
  chunkIndex: number;
  page?: number | null;
}

export interface StoredChunk {
  id: string;
  text: string;
  vector: number[];
  source: ChunkSource;
  metadata?: Record<string, string | number | boolean>;
}

export interface ScoredChunk {
  id: string;
  text: string;
  /** Similarity in [0, 1] (cosine similarity, or the store's fused score for hybrid search). */
  score: number;
  source: ChunkSource;
}

export interface VectorSearchQuery {
  vector: number[];
  /** The query text, for stores that can fuse keyword (BM25) and vector scores. */
  text?: string;
  topK: number;
  /** 0 = keyword only, 1 = vector only. Stores without hybrid search ignore it. */
  alpha?: number;
  filter?: Record<string, string | number | boolean>;
}

export interface VectorStore {
  /** Name shown in node runs ("pgvector", "weaviate", …). */
  readonly id: string;
  ensureCollection(collection: string, dimension: number): Promise<void>;
  dropCollection(collection: string): Promise<void>;
  upsert(collection: string, chunks: readonly StoredChunk[]): Promise<void>;
  deleteDocument(collection: string, documentId: string): Promise<void>;
  search(collection: string, query: VectorSearchQuery, signal?: AbortSignal): Promise<ScoredChunk[]>;
}

export interface RetrievalResult {
  chunks: ScoredChunk[];
  /** Which store answered, recorded on the node run. */
  store: string;
}

/** What a model node calls: search a knowledge base by name with the node's input_data. */
export interface Retriever {
  retrieve(knowledgeBase: string, query: string, topK: number, signal: AbortSignal): Promise<RetrievalResult>;
}
