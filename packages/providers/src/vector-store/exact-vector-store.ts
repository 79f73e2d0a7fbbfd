import {
  chunkMatchesFilter,
  mergeSearchResults,
  neighbourRanges,
  orderNeighbours,
  type ChunkAnchor,
  type MultiVectorSearchQuery,
  type PositionedChunk,
  type ScoredChunk,
  type StoredChunk,
  type VectorSearchQuery,
  type VectorStore,
} from "@weft/engine";
import {
  checkCollectionDimension,
  checkMultiSearchQuery,
  checkNeighbourQuery,
  checkNewDimension,
  checkSearchQuery,
  checkVectorDimension,
  collectionNotFound,
} from "./vector-store.errors.js";

/**
 * An in-memory store that scores every chunk (exact cosine similarity, no index). It is the reference the
 * benchmarks measure recall against, and a store for tests. It has no keyword search: `text` and
 * `alpha` are ignored. Not meant for production data: nothing is persisted.
 */

interface Collection {
  dimension: number;
  chunks: Map<string, StoredChunk & { norm: number }>;
}

export function cosineSimilarity(a: readonly number[], b: readonly number[], normA: number, normB: number): number {
  if (normA === 0 || normB === 0) return 0;
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] as number) * (b[i] as number);
  return dot / (normA * normB);
}

export function vectorNorm(vector: readonly number[]): number {
  let sum = 0;
  for (const value of vector) sum += value * value;
  return Math.sqrt(sum);
}

export class ExactVectorStore implements VectorStore {
  readonly id: string;
  readonly keywordSearch = false;
  private readonly collections = new Map<string, Collection>();

  constructor(id = "exact-memory") {
    this.id = id;
  }

  async ensureCollection(collection: string, dimension: number): Promise<void> {
    checkNewDimension(this.id, dimension);
    const existing = this.collections.get(collection);
    if (existing) {
      checkCollectionDimension(this.id, collection, existing.dimension, dimension);
      return;
    }
    this.collections.set(collection, { dimension, chunks: new Map() });
  }

  async dropCollection(collection: string): Promise<void> {
    this.collections.delete(collection);
  }

  async upsert(collection: string, chunks: readonly StoredChunk[]): Promise<void> {
    const target = this.get(collection);
    for (const chunk of chunks) checkVectorDimension(this.id, collection, target.dimension, chunk.vector, `Chunk "${chunk.id}"`);
    for (const chunk of chunks) target.chunks.set(chunk.id, { ...chunk, vector: [...chunk.vector], norm: vectorNorm(chunk.vector) });
  }

  async deleteDocument(collection: string, documentId: string): Promise<void> {
    const target = this.get(collection);
    for (const [id, chunk] of target.chunks) if (chunk.source.documentId === documentId) target.chunks.delete(id);
  }

  async search(collection: string, query: VectorSearchQuery): Promise<ScoredChunk[]> {
    checkSearchQuery(this.id, query);
    const target = this.get(collection);
    checkVectorDimension(this.id, collection, target.dimension, query.vector, "The query vector");
    const queryNorm = vectorNorm(query.vector);
    const scored: ScoredChunk[] = [];
    for (const chunk of target.chunks.values()) {
      if (!chunkMatchesFilter(chunk, query.filter)) continue;
      const similarity = cosineSimilarity(query.vector, chunk.vector, queryNorm, chunk.norm);
      scored.push({ id: chunk.id, text: chunk.text, score: Math.max(0, Math.min(1, similarity)), source: { ...chunk.source } });
    }
    return scored.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id)).slice(0, query.topK);
  }

  async searchMany(collection: string, query: MultiVectorSearchQuery): Promise<ScoredChunk[]> {
    checkMultiSearchQuery(this.id, query);
    const { queries, ...shared } = query;
    const lists = await Promise.all(queries.map((one) => this.search(collection, { ...shared, ...one })));
    return mergeSearchResults(lists, query.topK);
  }

  async neighbours(collection: string, anchors: readonly ChunkAnchor[], window: number): Promise<PositionedChunk[]> {
    checkNeighbourQuery(this.id, anchors, window);
    const target = this.get(collection);
    const ranges = neighbourRanges(anchors, window);
    const found: PositionedChunk[] = [];
    for (const chunk of target.chunks.values()) {
      const { documentId, chunkIndex } = chunk.source;
      if (ranges.some((range) => range.documentId === documentId && chunkIndex >= range.from && chunkIndex <= range.to)) {
        found.push({ id: chunk.id, text: chunk.text, source: { ...chunk.source } });
      }
    }
    return orderNeighbours(anchors, found);
  }

  private get(collection: string): Collection {
    const found = this.collections.get(collection);
    if (!found) throw collectionNotFound(this.id, collection);
    return found;
  }
}
