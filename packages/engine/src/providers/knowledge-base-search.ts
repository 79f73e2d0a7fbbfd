import type { ChunkFilter } from "./chunk-filter.js";
import type { ChunkAnchor, PositionedChunk, RetrievalResult } from "./retrieval.js";

/**
 * What `retrieve` and `expand` nodes call: knowledge bases by name, with everything the stores can do
 * (multi-query search merged by chunk id, typed filters, hybrid alpha, neighbours by position). The API
 * implements it over the knowledge base's own embedder and vector store.
 */

export interface KnowledgeBaseQuery {
  /** One or more query texts (multi-query: results merged by chunk id, best score kept); blank ones are ignored. */
  queries: readonly string[];
  topK: number;
  filter?: ChunkFilter;
  /** Hybrid weight for stores with keyword search; absent: the deployment's default. */
  alpha?: number;
}

export interface NeighbourResult {
  chunks: PositionedChunk[];
  store: string;
}

export interface KnowledgeBaseSearch {
  search(knowledgeBase: string, query: KnowledgeBaseQuery, signal: AbortSignal): Promise<RetrievalResult>;
  neighbours(knowledgeBase: string, anchors: readonly ChunkAnchor[], window: number, signal: AbortSignal): Promise<NeighbourResult>;
}
