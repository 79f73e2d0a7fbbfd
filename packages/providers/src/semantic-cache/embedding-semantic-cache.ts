import {
  cacheScopeKey,
  WeftError,
  type CachedAnswer,
  type CacheScope,
  type Embedder,
  type SemanticCache,
  type SemanticCacheEntry,
  type SemanticCacheHit,
  type SemanticCacheStore,
} from "@weft/engine";

/**
 * The question-level cache nodes use: embeds a question with the embedder the store was built for,
 * then looks it up or stores it under the scope's key. Refuses to pair an embedder with a store of
 * another embedding space, since their similarities would mean nothing.
 */
export class EmbeddingSemanticCache implements SemanticCache {
  readonly store: string;

  constructor(
    private readonly embedder: Embedder,
    private readonly entries: SemanticCacheStore,
  ) {
    if (embedder.model !== entries.model || embedder.dimension !== entries.dimension) {
      throw new WeftError(
        "EMBEDDING_MODEL_MISMATCH",
        `The semantic cache holds ${entries.model} (${entries.dimension} dimensions) vectors; it cannot be searched with ${embedder.model} (${embedder.dimension}).`,
        { audience: "operational" },
      );
    }
    this.store = entries.id;
  }

  async lookup(scope: CacheScope, question: string, threshold: number, signal: AbortSignal): Promise<SemanticCacheHit | null> {
    if (question.trim() === "") return null;
    return this.entries.lookup(cacheScopeKey(scope), await this.vector(question, signal), threshold, signal);
  }

  async save(scope: CacheScope, question: string, answer: CachedAnswer, ttlSeconds: number | null | undefined, signal: AbortSignal): Promise<SemanticCacheEntry> {
    return this.entries.put(cacheScopeKey(scope), { query: question, vector: await this.vector(question, signal), answer, ttlSeconds: ttlSeconds ?? null });
  }

  private async vector(question: string, signal: AbortSignal): Promise<number[]> {
    const [vector] = await this.embedder.embed([question], signal);
    if (!vector) throw new Error(`the embedder ${this.embedder.model} returned no vector`);
    return vector;
  }
}
