import { WeftError } from "../model/errors.js";
import { chunkMatchesFilter } from "../providers/chunk-filter.js";
import type { ChunkAnchor, MultiVectorSearchQuery, PositionedChunk, ScoredChunk, StoredChunk, VectorSearchQuery, VectorStore } from "../providers/retrieval.js";
import { mergeSearchResults, neighbourRanges, orderNeighbours } from "../providers/search-merge.js";

/**
 * A VectorStore in memory for engine tests: exact cosine similarity over every chunk of a collection,
 * metadata filters by equality, no hybrid search (alpha is ignored). Scores are mapped to [0, 1].
 */
export class InMemoryVectorStore implements VectorStore {
  readonly id = "memory";
  readonly keywordSearch = false;
  readonly #collections = new Map<string, { dimension: number; chunks: Map<string, StoredChunk> }>();

  async ensureCollection(collection: string, dimension: number): Promise<void> {
    const existing = this.#collections.get(collection);
    if (existing && existing.dimension !== dimension) {
      throw new WeftError(
        "VECTOR_DIMENSION_MISMATCH",
        `collection "${collection}" holds ${existing.dimension}-dimensional vectors, not ${dimension}`,
      );
    }
    if (!existing) this.#collections.set(collection, { dimension, chunks: new Map() });
  }

  async dropCollection(collection: string): Promise<void> {
    this.#collections.delete(collection);
  }

  async upsert(collection: string, chunks: readonly StoredChunk[]): Promise<void> {
    const target = this.#require(collection);
    for (const chunk of chunks) {
      this.#checkDimension(collection, target.dimension, chunk.vector.length);
      target.chunks.set(chunk.id, chunk);
    }
  }

  async deleteDocument(collection: string, documentId: string): Promise<void> {
    const target = this.#require(collection);
    for (const [id, chunk] of target.chunks) if (chunk.source.documentId === documentId) target.chunks.delete(id);
  }

  async search(collection: string, query: VectorSearchQuery, signal?: AbortSignal): Promise<ScoredChunk[]> {
    signal?.throwIfAborted();
    const target = this.#require(collection);
    this.#checkDimension(collection, target.dimension, query.vector.length);
    const hits: ScoredChunk[] = [];
    for (const chunk of target.chunks.values()) {
      if (!chunkMatchesFilter(chunk, query.filter)) continue;
      const score = (cosine(query.vector, chunk.vector) + 1) / 2;
      hits.push({ id: chunk.id, text: chunk.text, score, source: chunk.source });
    }
    hits.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
    return hits.slice(0, query.topK);
  }

  async searchMany(collection: string, query: MultiVectorSearchQuery, signal?: AbortSignal): Promise<ScoredChunk[]> {
    const { queries, ...shared } = query;
    const lists = await Promise.all(queries.map((one) => this.search(collection, { ...shared, ...one }, signal)));
    return mergeSearchResults(lists, query.topK);
  }

  async neighbours(collection: string, anchors: readonly ChunkAnchor[], window: number): Promise<PositionedChunk[]> {
    const target = this.#require(collection);
    const ranges = neighbourRanges(anchors, window);
    const found = [...target.chunks.values()]
      .filter((chunk) => ranges.some((range) => range.documentId === chunk.source.documentId && chunk.source.chunkIndex >= range.from && chunk.source.chunkIndex <= range.to))
      .map((chunk) => ({ id: chunk.id, text: chunk.text, source: chunk.source }));
    return orderNeighbours(anchors, found);
  }

  #require(collection: string) {
    const target = this.#collections.get(collection);
    if (!target) throw new WeftError("COLLECTION_NOT_FOUND", `collection "${collection}" does not exist`);
    return target;
  }

  #checkDimension(collection: string, expected: number, actual: number): void {
    if (actual !== expected) {
      throw new WeftError("VECTOR_DIMENSION_MISMATCH", `collection "${collection}" expects ${expected} dimensions, got ${actual}`);
    }
  }
}

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i += 1) {
    dot += a[i]! * b[i]!;
    normA += a[i]! * a[i]!;
    normB += b[i]! * b[i]!;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}
