import type { ChunkFilter } from "./chunk-filter.js";

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
  /** 0 = keyword only, 1 = vector only. Stores without hybrid search (`keywordSearch` false) ignore it. */
  alpha?: number;
  filter?: ChunkFilter;
}

/**
 * Several queries against one collection with one filter (multi-query retrieval): each query fetches
 * its `topK` nearest chunks, the lists are merged by chunk id keeping each chunk's best score, and the
 * merged list is cut to `topK` (see `mergeSearchResults`).
 */
export interface MultiVectorSearchQuery {
  queries: readonly { vector: number[]; text?: string }[];
  topK: number;
  alpha?: number;
  filter?: ChunkFilter;
}

/** A chunk by position, without a score (neighbour lookup). */
export interface PositionedChunk {
  id: string;
  text: string;
  source: ChunkSource;
}

/** Where to look for neighbours: a chunk's document and position. */
export interface ChunkAnchor {
  documentId: string;
  chunkIndex: number;
}

export interface VectorStore {
  /** Name shown in node runs ("pgvector", "weaviate", …). */
  readonly id: string;
  ensureCollection(collection: string, dimension: number): Promise<void>;
  dropCollection(collection: string): Promise<void>;
  upsert(collection: string, chunks: readonly StoredChunk[]): Promise<void>;
  deleteDocument(collection: string, documentId: string): Promise<void>;
  search(collection: string, query: VectorSearchQuery, signal?: AbortSignal): Promise<ScoredChunk[]>;
  searchMany(collection: string, query: MultiVectorSearchQuery, signal?: AbortSignal): Promise<ScoredChunk[]>;
  /**
   * Every chunk of an anchor's document whose index is within ±`window` of the anchor's (anchors
   * included), each once, ordered by document (first anchor first) and then by index.
   */
  neighbours(collection: string, anchors: readonly ChunkAnchor[], window: number, signal?: AbortSignal): Promise<PositionedChunk[]>;
  /** True when the store fuses keyword (BM25) and vector scores, so `alpha` means something. */
  readonly keywordSearch: boolean;
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
