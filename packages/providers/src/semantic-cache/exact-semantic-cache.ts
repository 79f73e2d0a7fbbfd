import type { SemanticCacheEntry, SemanticCacheHit, SemanticCachePage, SemanticCachePut, SemanticCacheStore } from "@weft/engine";
import { cosineSimilarity, vectorNorm } from "../vector-store/exact-vector-store.js";
import { cacheEntryId, checkCacheLookup, checkCachePage, checkCachePut, expiryTime } from "./semantic-cache.checks.js";

interface Stored {
  entry: SemanticCacheEntry;
  vector: number[];
  norm: number;
}

/**
 * A semantic cache in memory that compares a question with every live entry of its scope (exact
 * cosine similarity): the reference the contract suite holds the real stores to, and a cache for
 * tests. Nothing is persisted.
 */
export class ExactSemanticCache implements SemanticCacheStore {
  readonly id = "exact-memory";
  private readonly scopes = new Map<string, Map<string, Stored>>();
  private readonly now: () => number;

  constructor(
    readonly model: string,
    readonly dimension: number,
    options: { now?: () => number } = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  async lookup(scope: string, vector: readonly number[], threshold: number): Promise<SemanticCacheHit | null> {
    checkCacheLookup(this.id, this.dimension, scope, vector, threshold);
    const norm = vectorNorm(vector);
    let best: SemanticCacheHit | null = null;
    for (const stored of this.live(scope)) {
      const similarity = Math.max(0, Math.min(1, cosineSimilarity(vector, stored.vector, norm, stored.norm)));
      if (similarity >= threshold && (best === null || similarity > best.similarity)) best = { entry: { ...stored.entry }, similarity };
    }
    return best;
  }

  async put(scope: string, put: SemanticCachePut): Promise<SemanticCacheEntry> {
    const answer = checkCachePut(this.id, this.dimension, scope, put);
    const now = this.now();
    const entry: SemanticCacheEntry = {
      id: cacheEntryId(scope, put.query),
      scope,
      query: put.query.trim(),
      answer: JSON.parse(answer) as SemanticCacheEntry["answer"],
      createdAt: now,
      expiresAt: expiryTime(now, put.ttlSeconds),
    };
    const entries = this.scopes.get(scope) ?? new Map<string, Stored>();
    entries.set(entry.id, { entry, vector: [...put.vector], norm: vectorNorm(put.vector) });
    this.scopes.set(scope, entries);
    return { ...entry };
  }

  async putMany(scope: string, puts: readonly SemanticCachePut[]): Promise<void> {
    for (const put of puts) checkCachePut(this.id, this.dimension, scope, put);
    for (const put of puts) await this.put(scope, put);
  }

  async list(scope: string, page: { limit: number; offset?: number }): Promise<SemanticCachePage> {
    const { limit, offset } = checkCachePage(this.id, page);
    const live = this.live(scope)
      .map((stored) => stored.entry)
      .sort((a, b) => b.createdAt - a.createdAt || a.id.localeCompare(b.id));
    return { entries: live.slice(offset, offset + limit).map((entry) => ({ ...entry })), total: live.length };
  }

  async clear(scope: string): Promise<number> {
    const count = this.scopes.get(scope)?.size ?? 0;
    this.scopes.delete(scope);
    return count;
  }

  async removeExpired(): Promise<number> {
    const now = this.now();
    let removed = 0;
    for (const entries of this.scopes.values()) {
      for (const [id, stored] of entries) {
        if (stored.entry.expiresAt !== null && stored.entry.expiresAt <= now) {
          entries.delete(id);
          removed++;
        }
      }
    }
    return removed;
  }

  private live(scope: string): Stored[] {
    const now = this.now();
    return [...(this.scopes.get(scope)?.values() ?? [])].filter((stored) => stored.entry.expiresAt === null || stored.entry.expiresAt > now);
  }
}
