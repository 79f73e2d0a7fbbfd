import type { Embedder, KnowledgeBaseQuery, ScoredChunk, VectorStore } from "@weft/engine";

/**
 * One knowledge-base search against one collection: the queries embedded with the collection's own
 * embedder, one query searched alone, several merged by chunk id (the store's `searchMany`). Blank
 * queries are ignored; none left finds nothing. Shared by the API's knowledge bases and the command
 * line's folder knowledge bases.
 */
export async function searchCollection(
  embedder: Embedder,
  store: VectorStore,
  collection: string,
  query: KnowledgeBaseQuery & { alpha: number },
  signal: AbortSignal,
): Promise<ScoredChunk[]> {
  const texts = query.queries.filter((text) => text.trim() !== "");
  if (texts.length === 0) return [];
  const vectors = await embedder.embed(texts, signal);
  if (vectors.length !== texts.length) throw new Error(`the embedder ${embedder.model} returned ${vectors.length} vectors for ${texts.length} queries`);
  const shared = { topK: query.topK, alpha: query.alpha, ...(query.filter ? { filter: query.filter } : {}) };
  return texts.length === 1
    ? store.search(collection, { ...shared, vector: vectors[0] as number[], text: texts[0] as string }, signal)
    : store.searchMany(collection, { ...shared, queries: texts.map((text, i) => ({ vector: vectors[i] as number[], text })) }, signal);
}
