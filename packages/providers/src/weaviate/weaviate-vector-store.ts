import {
  mergeSearchResults,
  neighbourLimit,
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
import weaviate, { Filters, type FilterValue, type WeaviateClient } from "weaviate-client";
import {
  VectorStoreError,
  checkCollectionDimension,
  checkMultiSearchQuery,
  checkNeighbourQuery,
  checkNewDimension,
  checkSearchQuery,
  checkVectorDimension,
  collectionNotFound,
} from "../vector-store/vector-store.errors.js";
import { WeaviateConnection, type WeaviateConnectionOptions } from "./weaviate-connection.js";
import { mapWeaviateError } from "./weaviate-error.mapper.js";
import { buildWeaviateFilter, type PropertyFilterBuilder, type PropertyType } from "./weaviate-filter.js";
import { restBatchInsert } from "./weaviate-rest-batch.js";
import {
  chunkUuid,
  CORE_PROPERTIES,
  describeDimension,
  dimensionFromDescription,
  metadataPropertyName,
  scalarType,
  SOURCE_TITLE_PROPERTY,
  toProperties,
  weaviateCollectionName,
} from "./weaviate-schema.mapper.js";

export interface WeaviateVectorStoreOptions extends WeaviateConnectionOptions {
  /** HNSW search breadth; -1 (default) lets Weaviate pick a dynamic ef from the limit. */
  ef?: number;
  efConstruction?: number;
  maxConnections?: number;
  /** Objects per insert request (default 500). */
  batchSize?: number;
}

const VECTOR = "default";

function toPositionedChunk(props: Record<string, unknown>): PositionedChunk {
  return {
    id: String(props.chunkId),
    text: String(props.text ?? ""),
    source: {
      documentId: String(props.documentId),
      title: String(props.title ?? ""),
      chunkIndex: Number(props.chunkIndex ?? 0),
      page: typeof props.page === "number" ? props.page : null,
    },
  };
}

function toScoredChunk(props: Record<string, unknown>, rawScore: number): ScoredChunk {
  return { ...toPositionedChunk(props), score: Math.max(0, Math.min(1, rawScore)) };
}

const DELETE_ROUNDS = 1000;
/** Ranges per neighbour request, so one filter stays small. */
const NEIGHBOUR_RANGES_PER_REQUEST = 100;

/**
 * Weaviate through its maintained v3 client: one collection per knowledge base, our own vectors
 * (no vectorizer module), HNSW with cosine distance. Search is nearVector when there is no query text
 * or alpha is 1, otherwise hybrid (BM25 + our vector) with relative-score fusion.
 *
 * Scores: nearVector → 1 − cosine distance (the cosine similarity, clamped to [0, 1]); hybrid →
 * Weaviate's relativeScore fusion, alpha·v + (1 − alpha)·k where v and k are the vector and BM25 scores
 * min-max-normalised within the result set, so hybrid scores rank hits within one query but are not
 * comparable across queries.
 */
export class WeaviateVectorStore implements VectorStore {
  readonly id = "weaviate";
  readonly keywordSearch = true;
  private readonly connection: WeaviateConnection;
  private readonly dimensions = new Map<string, number>();
  private readonly properties = new Map<string, Map<string, PropertyType>>();

  constructor(private readonly options: WeaviateVectorStoreOptions) {
    this.connection = new WeaviateConnection(options);
  }

  async close(): Promise<void> {
    await this.connection.close();
  }

  /**
   * Readiness: Weaviate answers /v1/.well-known/ready over REST and its gRPC port accepts connections
   * (searches use gRPC). Rejects with VECTOR_STORE_UNAVAILABLE naming the address that failed.
   */
  async ready(timeoutMs = 2_000): Promise<void> {
    const url = `${this.options.url.replace(/\/$/, "")}/v1/.well-known/ready`;
    const headers: Record<string, string> = this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {};
    let response: Response;
    try {
      response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
      const reason = (cause as NodeJS.ErrnoException).code ?? (cause instanceof Error ? cause.message : String(cause));
      throw new VectorStoreError("VECTOR_STORE_UNAVAILABLE", `Weaviate at ${this.options.url} is unreachable: ${reason}.`, { store: this.id, cause: error });
    }
    if (!response.ok) {
      throw new VectorStoreError("VECTOR_STORE_UNAVAILABLE", `Weaviate at ${this.options.url} is not ready (HTTP ${response.status}).`, { store: this.id });
    }
    await this.connection.probe();
  }

  async ensureCollection(collection: string, dimension: number): Promise<void> {
    checkNewDimension(this.id, dimension);
    await this.run("ensure collection", async (client) => {
      const existing = await this.readDimension(client, collection);
      if (existing !== undefined) return checkCollectionDimension(this.id, collection, existing, dimension);
      try {
        await client.collections.create({
          name: weaviateCollectionName(collection),
          description: describeDimension(dimension),
          properties: CORE_PROPERTIES.map((property) => ({ ...property })),
          vectorizers: weaviate.configure.vectors.selfProvided({
            name: VECTOR,
            vectorIndexConfig: weaviate.configure.vectorIndex.hnsw({
              distanceMetric: "cosine",
              ef: this.options.ef ?? -1,
              efConstruction: this.options.efConstruction ?? 128,
              maxConnections: this.options.maxConnections ?? 32,
            }),
          }),
        });
      } catch (error) {
        // Another caller created it first: fine, as long as the dimension agrees.
        const raced = await this.readDimension(client, collection);
        if (raced === undefined) throw error;
        return checkCollectionDimension(this.id, collection, raced, dimension);
      }
      this.dimensions.set(collection, dimension);
    });
  }

  /** Sets the HNSW search breadth of one collection (-1 = Weaviate's dynamic ef); trades latency for recall. */
  async setSearchEf(collection: string, ef: number): Promise<void> {
    await this.run("configure search", async (client) => {
      await this.requireDimension(client, collection);
      await client.collections.use(weaviateCollectionName(collection)).config.update({
        vectorizers: [weaviate.reconfigure.vectors.update({ name: VECTOR, vectorIndexConfig: weaviate.reconfigure.vectorIndex.hnsw({ ef }) })],
      });
    });
  }

  async dropCollection(collection: string): Promise<void> {
    await this.run("drop collection", async (client) => {
      this.dimensions.delete(collection);
      this.properties.delete(collection);
      await client.collections.delete(weaviateCollectionName(collection));
    });
  }

  async upsert(collection: string, chunks: readonly StoredChunk[]): Promise<void> {
    if (chunks.length === 0) return;
    await this.run("upsert", async (client) => {
      const dimension = await this.requireDimension(client, collection);
      for (const chunk of chunks) checkVectorDimension(this.id, collection, dimension, chunk.vector, `Chunk "${chunk.id}"`);
      await this.declareMetadata(client, collection, chunks);
      const batchSize = this.options.batchSize ?? 500;
      for (let start = 0; start < chunks.length; start += batchSize) {
        const objects = chunks.slice(start, start + batchSize).map((chunk) => ({
          id: chunkUuid(chunk.id),
          properties: toProperties(chunk),
          vectors: { [VECTOR]: chunk.vector },
        }));
        await restBatchInsert(this.options.url, weaviateCollectionName(collection), objects, { apiKey: this.options.apiKey, timeoutMs: 120_000 });
      }
    });
  }

  async deleteDocument(collection: string, documentId: string): Promise<void> {
    await this.run("delete document", async (client) => {
      await this.requireDimension(client, collection);
      const handle = client.collections.use(weaviateCollectionName(collection));
      // deleteMany removes at most QUERY_MAXIMUM_RESULTS objects per call; repeat until none match.
      for (let round = 0; round < DELETE_ROUNDS; round++) {
        const result = await handle.data.deleteMany(handle.filter.byProperty("documentId").equal(documentId));
        if (result.failed > 0) throw new Error(`Weaviate could not delete ${result.failed} chunks of document "${documentId}".`);
        if (result.matches === 0 || result.successful === 0) return;
      }
    });
  }

  async search(collection: string, query: VectorSearchQuery, signal?: AbortSignal): Promise<ScoredChunk[]> {
    checkSearchQuery(this.id, query);
    return this.run("search", (client) => this.withDeadline(this.searchWith(client, collection, query, signal), signal));
  }

  /** The queries run in parallel, each over gRPC; their hits are merged by chunk id (best score kept). */
  async searchMany(collection: string, query: MultiVectorSearchQuery, signal?: AbortSignal): Promise<ScoredChunk[]> {
    checkMultiSearchQuery(this.id, query);
    const { queries, ...shared } = query;
    return this.run("search", async (client) => {
      const lists = await this.withDeadline(Promise.all(queries.map((one) => this.searchWith(client, collection, { ...shared, ...one }, signal))), signal);
      return mergeSearchResults(lists, query.topK);
    });
  }

  async neighbours(collection: string, anchors: readonly ChunkAnchor[], window: number, signal?: AbortSignal): Promise<PositionedChunk[]> {
    checkNeighbourQuery(this.id, anchors, window);
    return this.run("neighbour lookup", (client) => this.withDeadline(this.neighboursWith(client, collection, anchors, window, signal), signal));
  }

  private withDeadline<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    return this.connection.withDeadline(work, signal);
  }

  private async neighboursWith(client: WeaviateClient, collection: string, anchors: readonly ChunkAnchor[], window: number, signal: AbortSignal | undefined): Promise<PositionedChunk[]> {
    signal?.throwIfAborted();
    await this.requireDimension(client, collection);
    const handle = client.collections.use(weaviateCollectionName(collection));
    const ranges = neighbourRanges(anchors, window);
    const found: PositionedChunk[] = [];
    for (let start = 0; start < ranges.length; start += NEIGHBOUR_RANGES_PER_REQUEST) {
      const batch = ranges.slice(start, start + NEIGHBOUR_RANGES_PER_REQUEST);
      const filters = batch.map((range) =>
        Filters.and(
          handle.filter.byProperty("documentId").equal(range.documentId),
          handle.filter.byProperty("chunkIndex").greaterOrEqual(range.from),
          handle.filter.byProperty("chunkIndex").lessOrEqual(range.to),
        ),
      );
      const result = await handle.query.fetchObjects({
        filters: filters.length === 1 ? (filters[0] as FilterValue) : Filters.or(...filters),
        limit: neighbourLimit(batch),
      });
      signal?.throwIfAborted();
      for (const object of result.objects) found.push(toPositionedChunk(object.properties as Record<string, unknown>));
    }
    return orderNeighbours(anchors, found);
  }

  private async searchWith(client: WeaviateClient, collection: string, query: VectorSearchQuery, signal: AbortSignal | undefined): Promise<ScoredChunk[]> {
    signal?.throwIfAborted();
    const dimension = await this.requireDimension(client, collection);
    checkVectorDimension(this.id, collection, dimension, query.vector, "The query vector");
    const handle = client.collections.use(weaviateCollectionName(collection));
    const known = await this.knownProperties(client, collection);
    const filters = buildWeaviateFilter(query.filter, handle.filter as unknown as PropertyFilterBuilder, (property) => known.get(property));
    if (filters === null) return [];
    const common = { limit: query.topK, ...(filters ? { filters } : {}), targetVector: VECTOR };
    const text = query.text?.trim() ?? "";
    const alpha = query.alpha ?? 0.5;
    const hybrid = text !== "" && alpha < 1;
    const result = hybrid
      ? await handle.query.hybrid(text, {
          ...common,
          alpha,
          vector: query.vector,
          fusionType: "RelativeScore",
          queryProperties: ["text", "title"],
          returnMetadata: ["score"],
        })
      : await handle.query.nearVector(query.vector, { ...common, returnMetadata: ["distance"] });
    signal?.throwIfAborted();
    return result.objects.map((object) => toScoredChunk(object.properties as Record<string, unknown>, hybrid ? (object.metadata?.score ?? 0) : 1 - (object.metadata?.distance ?? 1)));
  }

  private async run<T>(operation: string, body: (client: WeaviateClient) => Promise<T>): Promise<T> {
    try {
      return await this.connection.use(body);
    } catch (error) {
      throw mapWeaviateError(error, { store: this.id, operation, url: this.options.url });
    }
  }

  private async readDimension(client: WeaviateClient, collection: string): Promise<number | undefined> {
    const cached = this.dimensions.get(collection);
    if (cached !== undefined) return cached;
    const name = weaviateCollectionName(collection);
    if (!(await client.collections.exists(name))) return undefined;
    const config = await client.collections.use(name).config.get();
    const dimension = dimensionFromDescription(config.description);
    if (dimension === undefined) throw new Error(`Weaviate collection ${name} was not created by Weft (no dimension recorded).`);
    this.dimensions.set(collection, dimension);
    this.properties.set(collection, new Map(config.properties.map((p) => [p.name, p.dataType as PropertyType])));
    return dimension;
  }

  private async requireDimension(client: WeaviateClient, collection: string): Promise<number> {
    const dimension = await this.readDimension(client, collection);
    if (dimension === undefined) throw collectionNotFound(this.id, collection);
    return dimension;
  }

  private async knownProperties(client: WeaviateClient, collection: string): Promise<Map<string, PropertyType>> {
    let known = this.properties.get(collection);
    if (!known) {
      const config = await client.collections.use(weaviateCollectionName(collection)).config.get();
      known = new Map(config.properties.map((p) => [p.name, p.dataType as PropertyType]));
      this.properties.set(collection, known);
    }
    if (!known.has(SOURCE_TITLE_PROPERTY.name)) {
      // Collections created before exact title matching: declare it (older chunks get it when re-indexed).
      await client.collections.use(weaviateCollectionName(collection)).config.addProperty({ ...SOURCE_TITLE_PROPERTY });
      known.set(SOURCE_TITLE_PROPERTY.name, "text");
    }
    return known;
  }

  /** Declares metadata properties before the insert so strings get exact-match ("field") tokenization. */
  private async declareMetadata(client: WeaviateClient, collection: string, chunks: readonly StoredChunk[]): Promise<void> {
    const known = await this.knownProperties(client, collection);
    const handle = client.collections.use(weaviateCollectionName(collection));
    for (const chunk of chunks) {
      for (const [key, value] of Object.entries(chunk.metadata ?? {})) {
        const name = metadataPropertyName(key);
        if (known.has(name)) continue;
        const dataType = scalarType(value);
        await handle.config.addProperty({ name, dataType, ...(dataType === "text" ? { tokenization: "field" as const, indexSearchable: false } : {}) });
        known.set(name, dataType);
      }
    }
  }
}
