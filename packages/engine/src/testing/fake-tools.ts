import { WeftError } from "../model/errors.js";
import type { JsonValue } from "../model/json-value.js";
import { chunkMatchesFilter, type FilterScalar } from "../providers/chunk-filter.js";
import type { KnowledgeBaseQuery, KnowledgeBaseSearch, NeighbourResult } from "../providers/knowledge-base-search.js";
import type { ChunkAnchor, RetrievalResult, ScoredChunk } from "../providers/retrieval.js";
import { mergeSearchResults, neighbourRanges, orderNeighbours } from "../providers/search-merge.js";
import { cacheScopeKey, type CacheScope, type SemanticCache, type SemanticCacheEntry, type SemanticCacheHit } from "../providers/semantic-cache.js";
import type { ThreadHistory, ThreadMessage } from "../providers/thread-history.js";
import type { WebSearchProvider, WebSearchRequest, WebSearchResponse, WebSearchResult } from "../providers/web-search.js";

/**
 * Deterministic stand-ins for the tool providers, for engine tests. Similarity is word overlap
 * (Jaccard of lower-cased words), so expectations can be worked out by hand.
 */

const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

export function wordOverlap(a: string, b: string): number {
  const left = words(a);
  const right = words(b);
  if (left.size === 0 || right.size === 0) return 0;
  let shared = 0;
  for (const word of left) if (right.has(word)) shared++;
  return shared / (left.size + right.size - shared);
}

export interface FakeChunk {
  id: string;
  documentId: string;
  title?: string;
  chunkIndex: number;
  page?: number | null;
  text: string;
  metadata?: Record<string, FilterScalar>;
}

/** Knowledge bases by name, each a list of chunks, searched by word overlap. */
export class FakeKnowledgeBases implements KnowledgeBaseSearch {
  readonly searches: { knowledgeBase: string; query: KnowledgeBaseQuery }[] = [];
  readonly lookups: { knowledgeBase: string; anchors: readonly ChunkAnchor[]; window: number }[] = [];

  constructor(private readonly bases: Record<string, FakeChunk[]>) {}

  async search(knowledgeBase: string, query: KnowledgeBaseQuery): Promise<RetrievalResult> {
    this.searches.push({ knowledgeBase, query });
    const chunks = this.base(knowledgeBase);
    const lists = query.queries.map((text) =>
      chunks
        .filter((chunk) => chunkMatchesFilter({ source: this.source(chunk), ...(chunk.metadata ? { metadata: chunk.metadata } : {}) }, query.filter))
        .map((chunk): ScoredChunk => ({ id: chunk.id, text: chunk.text, score: wordOverlap(text, chunk.text), source: this.source(chunk) }))
        .filter((hit) => hit.score > 0)
        .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id))
        .slice(0, query.topK),
    );
    return { chunks: mergeSearchResults(lists, query.topK), store: "fake" };
  }

  async neighbours(knowledgeBase: string, anchors: readonly ChunkAnchor[], window: number): Promise<NeighbourResult> {
    this.lookups.push({ knowledgeBase, anchors, window });
    const ranges = neighbourRanges(anchors, window);
    const found = this.base(knowledgeBase)
      .filter((chunk) => ranges.some((range) => range.documentId === chunk.documentId && chunk.chunkIndex >= range.from && chunk.chunkIndex <= range.to))
      .map((chunk) => ({ id: chunk.id, text: chunk.text, source: this.source(chunk) }));
    return { chunks: orderNeighbours(anchors, found), store: "fake" };
  }

  private base(name: string): FakeChunk[] {
    const chunks = this.bases[name];
    if (!chunks) throw new WeftError("KNOWLEDGE_BASE_NOT_FOUND", `Knowledge base "${name}" does not exist.`);
    return chunks;
  }

  private source(chunk: FakeChunk) {
    return { documentId: chunk.documentId, title: chunk.title ?? chunk.documentId, chunkIndex: chunk.chunkIndex, page: chunk.page ?? null };
  }
}

/** A semantic cache in memory: questions compared by word overlap, scopes apart, no expiry. */
export class FakeSemanticCache implements SemanticCache {
  readonly store = "fake";
  readonly saved: { scope: string; question: string; answer: JsonValue; ttlSeconds: number | null | undefined }[] = [];
  private readonly entries = new Map<string, Map<string, SemanticCacheEntry>>();

  async lookup(scope: CacheScope, question: string, threshold: number): Promise<SemanticCacheHit | null> {
    let best: SemanticCacheHit | null = null;
    for (const entry of this.entries.get(cacheScopeKey(scope))?.values() ?? []) {
      const similarity = wordOverlap(question, entry.query);
      if (similarity >= threshold && (best === null || similarity > best.similarity)) best = { entry, similarity };
    }
    return best;
  }

  async save(scope: CacheScope, question: string, answer: JsonValue, ttlSeconds: number | null | undefined): Promise<SemanticCacheEntry> {
    const key = cacheScopeKey(scope);
    this.saved.push({ scope: key, question, answer, ttlSeconds });
    const entry = { id: `${key}/${question}`, scope: key, query: question, answer, createdAt: 0, expiresAt: ttlSeconds ? ttlSeconds * 1000 : null };
    const entries = this.entries.get(key) ?? new Map<string, SemanticCacheEntry>();
    entries.set(question, entry);
    this.entries.set(key, entries);
    return entry;
  }
}

/** A web search provider with fixed results; queued failures are thrown first, one per call. */
export class FakeWebSearch implements WebSearchProvider {
  readonly label = "Fake web search";
  readonly requests: WebSearchRequest[] = [];
  readonly failures: Error[] = [];

  constructor(
    readonly id: string,
    private readonly results: WebSearchResult[],
  ) {}

  async search(request: WebSearchRequest): Promise<WebSearchResponse> {
    this.requests.push(request);
    const failure = this.failures.shift();
    if (failure) throw failure;
    return { provider: this.id, results: this.results.slice(0, request.maxResults) };
  }
}

/** A thread's messages in memory; records every read's limit. */
export class FakeThread implements ThreadHistory {
  readonly reads: number[] = [];

  constructor(readonly messages: ThreadMessage[] = []) {}

  async recentMessages(limit: number): Promise<ThreadMessage[]> {
    this.reads.push(limit);
    return this.messages.slice(Math.max(0, this.messages.length - limit));
  }
}
