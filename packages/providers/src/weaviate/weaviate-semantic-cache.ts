import type { CachedAnswer, SemanticCacheEntry, SemanticCacheHit, SemanticCachePage, SemanticCachePut, SemanticCacheStore } from "@weft/engine";
import weaviate, { Filters, type Collection, type FilterValue, type WeaviateClient } from "weaviate-client";
import { cacheEntryId, checkCacheLookup, checkCachePage, checkCachePut, expiryTime } from "../semantic-cache/semantic-cache.checks.js";
import { WeaviateConnection, type WeaviateConnectionOptions } from "./weaviate-connection.js";
import { mapWeaviateError } from "./weaviate-error.mapper.js";
import { restBatchInsert } from "./weaviate-rest-batch.js";
import { chunkUuid, describeDimension, dimensionFromDescription, weaviateCacheCollectionName } from "./weaviate-schema.mapper.js";

export interface WeaviateSemanticCacheOptions extends WeaviateConnectionOptions {
  /** The embedder whose vectors the cache holds (one collection per model and dimension). */
  model: string;
  dimension: number;
  /** Epoch milliseconds; injectable so expiry can be tested without waiting. */
  now?: () => number;
}

const VECTOR = "default";
/** Entries without a time to live expire at the end of representable time, so one range filter covers both. */
const NEVER = 8.64e15;
const DELETE_ROUNDS = 1000;
/**
 * HNSW search breadth of a cache collection. Weaviate's dynamic default (at least 100 for one result)
 * walks far more of the graph than finding one entry at similarity ≥ the threshold needs: at 100,000
 * entries the dynamic ef cost the server 30–75 % more CPU per lookup than ef 32, which found the same
 * entries (docs/benchmarks.md).
 */
export const CACHE_SEARCH_EF = 32;
/** Entries per REST batch request in putMany. */
const BATCH_SIZE = 500;

const PROPERTIES = [
  { name: "scope", dataType: "text", tokenization: "field", indexSearchable: false },
  { name: "query", dataType: "text", indexFilterable: false, indexSearchable: false },
  { name: "answerJson", dataType: "text", indexFilterable: false, indexSearchable: false },
  { name: "createdAt", dataType: "number", indexRangeFilters: true },
  { name: "expiresAt", dataType: "number", indexRangeFilters: true },
] as const;

function toEntry(id: string, props: Record<string, unknown>): SemanticCacheEntry {
  const expiresAt = Number(props.expiresAt);
  return {
    id,
    scope: String(props.scope),
    query: String(props.query),
    answer: JSON.parse(String(props.answerJson)) as CachedAnswer,
    createdAt: Number(props.createdAt),
    expiresAt: expiresAt >= NEVER ? null : expiresAt,
  };
}

/**
 * Semantic-cache entries in Weaviate (server mode): one collection per embedding model, our vectors
 * under HNSW with cosine distance, `scope` as an exact-match property and times as range-indexed
 * numbers. A lookup is one nearVector query filtered on the scope (distance ≤ 1 − threshold, limit 1),
 * asked again with expiry in the filter when that nearest entry has expired; the entry id is the UUID
 * of (scope, question), so storing a question again replaces it.
 */
export class WeaviateSemanticCache implements SemanticCacheStore {
  readonly id = "weaviate";
  readonly model: string;
  readonly dimension: number;
  private readonly collection: string;
  private readonly now: () => number;
  private readonly connection: WeaviateConnection;
  private ready: Promise<void> | undefined;

  constructor(private readonly options: WeaviateSemanticCacheOptions) {
    this.model = options.model;
    this.dimension = options.dimension;
    this.collection = weaviateCacheCollectionName(options.model, options.dimension);
    this.now = options.now ?? Date.now;
    this.connection = new WeaviateConnection(options);
  }

  async close(): Promise<void> {
    await this.connection.close();
  }

  async lookup(scope: string, vector: readonly number[], threshold: number, signal?: AbortSignal): Promise<SemanticCacheHit | null> {
    checkCacheLookup(this.id, this.dimension, scope, vector, threshold);
    return this.run("cache lookup", async (handle) => {
      const near = (filters: FilterValue) =>
        this.connection.withDeadline(handle.query.nearVector([...vector], { limit: 1, distance: 1 - threshold, filters, targetVector: VECTOR, returnMetadata: ["distance"] }), signal);
      // The scope alone filters the search and the nearest entry's expiry is checked here, which spares
      // Weaviate a range filter over every entry of the scope. Expired entries are swept, so only rarely
      // is the nearest one expired: then a second query filters on expiry too.
      const now = this.now();
      let [best] = (await near(handle.filter.byProperty("scope").equal(scope))).objects;
      if (best && !(Number((best.properties as Record<string, unknown>).expiresAt) > now)) [best] = (await near(this.live(handle, scope))).objects;
      if (!best) return null;
      const similarity = Math.max(0, Math.min(1, 1 - (best.metadata?.distance ?? 1)));
      return similarity >= threshold ? { entry: toEntry(best.uuid, best.properties as Record<string, unknown>), similarity } : null;
    });
  }

  async put(scope: string, put: SemanticCachePut): Promise<SemanticCacheEntry> {
    const answerJson = checkCachePut(this.id, this.dimension, scope, put);
    return this.run("cache store", async () => {
      const object = this.object(scope, put, answerJson, this.now());
      await restBatchInsert(this.options.url, this.collection, [object], { apiKey: this.options.apiKey, timeoutMs: 30_000 });
      return toEntry(object.id, object.properties);
    });
  }

  async putMany(scope: string, puts: readonly SemanticCachePut[]): Promise<void> {
    const objects = puts.map((put) => ({ put, answerJson: checkCachePut(this.id, this.dimension, scope, put) }));
    await this.run("cache store", async () => {
      const now = this.now();
      for (let start = 0; start < objects.length; start += BATCH_SIZE) {
        const batch = objects.slice(start, start + BATCH_SIZE).map(({ put, answerJson }) => this.object(scope, put, answerJson, now));
        await restBatchInsert(this.options.url, this.collection, batch, { apiKey: this.options.apiKey, timeoutMs: 120_000 });
      }
    });
  }

  async list(scope: string, page: { limit: number; offset?: number }): Promise<SemanticCachePage> {
    const { limit, offset } = checkCachePage(this.id, page);
    return this.run("cache list", async (handle) => {
      const filters = this.live(handle, scope);
      const [result, count] = await Promise.all([
        handle.query.fetchObjects({ filters, limit, offset, sort: handle.sort.byProperty("createdAt", false) }),
        handle.aggregate.overAll({ filters }),
      ]);
      return { entries: result.objects.map((object) => toEntry(object.uuid, object.properties as Record<string, unknown>)), total: count.totalCount };
    });
  }

  async clear(scope: string): Promise<number> {
    return this.run("cache clear", (handle) => this.deleteAll(handle, handle.filter.byProperty("scope").equal(scope)));
  }

  async removeExpired(): Promise<number> {
    return this.run("cache expiry", (handle) => this.deleteAll(handle, handle.filter.byProperty("expiresAt").lessOrEqual(this.now())));
  }

  private object(scope: string, put: SemanticCachePut, answerJson: string, now: number) {
    const properties = { scope, query: put.query.trim(), answerJson, createdAt: now, expiresAt: expiryTime(now, put.ttlSeconds) ?? NEVER };
    return { id: chunkUuid(`cache:${cacheEntryId(scope, put.query)}`), properties, vectors: { [VECTOR]: [...put.vector] } };
  }

  private live(handle: CacheCollection, scope: string): FilterValue {
    return Filters.and(handle.filter.byProperty("scope").equal(scope), handle.filter.byProperty("expiresAt").greaterThan(this.now()));
  }

  /** deleteMany removes at most QUERY_MAXIMUM_RESULTS objects per call; repeat until none match. */
  private async deleteAll(handle: CacheCollection, where: FilterValue): Promise<number> {
    let removed = 0;
    for (let round = 0; round < DELETE_ROUNDS; round++) {
      const result = await handle.data.deleteMany(where);
      if (result.failed > 0) throw new Error(`Weaviate could not delete ${result.failed} cache entries.`);
      removed += result.successful;
      if (result.matches === 0 || result.successful === 0) break;
    }
    return removed;
  }

  private async run<T>(operation: string, body: (handle: CacheCollection) => Promise<T>): Promise<T> {
    try {
      return await this.connection.use(async (client) => {
        await this.ensureCollection(client);
        return body(client.collections.use<string, CacheProperties>(this.collection));
      });
    } catch (error) {
      throw mapWeaviateError(error, { store: this.id, operation, url: this.options.url });
    }
  }

  private ensureCollection(client: WeaviateClient): Promise<void> {
    this.ready ??= (async () => {
      if (await client.collections.exists(this.collection)) {
        const collection = client.collections.use(this.collection);
        const config = await collection.config.get();
        if (dimensionFromDescription(config.description) !== this.dimension) throw new Error(`Weaviate collection ${this.collection} holds vectors of another dimension.`);
        // Collections created before the cache set its search breadth (Weaviate's dynamic ef) get it now.
        const index = config.vectorizers[VECTOR]?.indexConfig as { ef?: number } | undefined;
        if (index?.ef !== CACHE_SEARCH_EF) {
          await collection.config.update({ vectorizers: [weaviate.reconfigure.vectors.update({ name: VECTOR, vectorIndexConfig: weaviate.reconfigure.vectorIndex.hnsw({ ef: CACHE_SEARCH_EF }) })] });
        }
        return;
      }
      try {
        await client.collections.create({
          name: this.collection,
          description: describeDimension(this.dimension).replace("knowledge-base chunks", "semantic cache"),
          properties: PROPERTIES.map((property) => ({ ...property })),
          vectorizers: weaviate.configure.vectors.selfProvided({ name: VECTOR, vectorIndexConfig: weaviate.configure.vectorIndex.hnsw({ distanceMetric: "cosine", ef: CACHE_SEARCH_EF }) }),
        });
      } catch (error) {
        if (!(await client.collections.exists(this.collection))) throw error;
      }
    })().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }
}

type CacheProperties = {
  scope: string;
  query: string;
  answerJson: string;
  createdAt: number;
  expiresAt: number;
};

type CacheCollection = Collection<CacheProperties, string>;
