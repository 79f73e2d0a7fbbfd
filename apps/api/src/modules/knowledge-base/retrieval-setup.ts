import path from "node:path";
import type { Embedder, KnowledgeBaseSearch, Retriever, SemanticCache, SemanticCacheStore, VectorStore } from "@weft/engine";
import { createOpenAiEmbedder, embedderChoice, EmbeddingSemanticCache, LocalEmbedder, MistralEmbedder, NO_OPENAI_ENDPOINTS, WeaviateSemanticCache, WeaviateVectorStore, type OpenAiWiring } from "@weft/providers";
import type { Database } from "../../db/db.js";
import { EnvError, type Env } from "../../env.js";
import { KnowledgeBaseRetriever } from "../../retrieval/knowledge-base-retriever.js";
import type { Logger } from "../../logger.js";
import { PgvectorSemanticCache, type PgvectorSemanticCacheOptions } from "../../retrieval/pgvector-semantic-cache.js";
import { PgvectorVectorStore } from "../../retrieval/pgvector-vector-store.js";

/**
 * The embedders and vector stores this server has, and which of each a new knowledge base uses. A
 * knowledge base keeps the model and store it was created with; the lists let older ones still work.
 */
export interface RetrievalSetup {
  /** Used for new knowledge bases and by reindexKnowledgeBase (WEFT_EMBEDDER). */
  embedder: Embedder;
  /** Holds new knowledge bases: Weaviate when WEAVIATE_URL is set, else pgvector in the database. */
  store: VectorStore;
  embedders: readonly Embedder[];
  stores: readonly VectorStore[];
  /** Hybrid weight for Weaviate searches from model nodes, and searchKnowledgeBase's default (WEFT_HYBRID_ALPHA). */
  alpha: number;
  /** Why new knowledge bases cannot be created here (no usable store), or null. */
  unavailable: string | null;
  /**
   * The semantic cache of cache_lookup / cache_store nodes and `cache` on llm nodes: questions embedded
   * with `embedder`, entries in Weaviate when WEAVIATE_URL is set, else in pgvector; null without either.
   */
  semanticCache: SemanticCache | null;
  /** The store under `semanticCache`: its entries listed and cleared through the API, expired ones swept. */
  semanticCacheStore: SemanticCacheStore | null;
  close(): Promise<void>;
}

export interface StoreAvailability {
  /** Whether the database has pgvector: always in embedded mode; on a server, when the `vector` extension is installed. */
  pgvector: boolean;
}

/** Whether a PostgreSQL server offers the `vector` extension (installed, or installable with CREATE EXTENSION). */
export async function hasPgvector(database: Pick<Database, "mode" | "raw">): Promise<boolean> {
  if (database.mode === "embedded") return true;
  const { rows } = await database.raw.query<{ available: boolean }>("SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS available");
  return rows[0]?.available === true;
}

/**
 * Builds the setup from the configuration. The local embedder is always there (no key, no network);
 * Mistral's joins when MISTRAL_API_KEY is set and is the default with WEFT_EMBEDDER=mistral; with
 * WEFT_EMBEDDER=<provider>:<model> an OpenAI-compatible endpoint's model joins and is the default. pgvector
 * lives in the database (PGlite's `vector` extension in embedded mode; a server needs the extension
 * installed: without it pgvector is left out of `stores`); Weaviate joins when WEAVIATE_URL is set and
 * then holds new knowledge bases.
 */
export function createRetrievalSetup(
  env: Env,
  database: Pick<Database, "raw"> & Partial<Pick<Database, "mode" | "dataDir">>,
  availability: StoreAvailability = { pgvector: true },
  logger?: Pick<Logger, "warn">,
  openai: OpenAiWiring = NO_OPENAI_ENDPOINTS,
): RetrievalSetup {
  const local = new LocalEmbedder();
  const mistral = env.MISTRAL_API_KEY
    ? new MistralEmbedder({
        apiKey: env.MISTRAL_API_KEY,
        timeoutMs: env.MISTRAL_TIMEOUT_MS,
        ...(env.MISTRAL_SERVER_URL ? { serverURL: env.MISTRAL_SERVER_URL } : {}),
      })
    : null;
  if (env.WEFT_EMBEDDER === "mistral" && !mistral) {
    throw new EnvError(["WEFT_EMBEDDER: mistral needs MISTRAL_API_KEY"]);
  }
  const pgvector = new PgvectorVectorStore(database.raw, { efSearch: env.WEFT_PGVECTOR_EF_SEARCH });
  const weaviate = env.WEAVIATE_URL
    ? new WeaviateVectorStore({
        url: env.WEAVIATE_URL,
        grpcPort: env.WEAVIATE_GRPC_PORT,
        ...(env.WEAVIATE_API_KEY ? { apiKey: env.WEAVIATE_API_KEY } : {}),
      })
    : null;
  const stores = [...(availability.pgvector ? [pgvector] : []), ...(weaviate ? [weaviate] : [])];
  const remote = openAiEmbedder(env, openai);
  const embedder = remote ?? (env.WEFT_EMBEDDER === "mistral" && mistral ? mistral : local);
  const cacheOptions = { model: embedder.model, dimension: embedder.dimension };
  const cacheStore = env.WEAVIATE_URL
    ? new WeaviateSemanticCache({ url: env.WEAVIATE_URL, grpcPort: env.WEAVIATE_GRPC_PORT, ...(env.WEAVIATE_API_KEY ? { apiKey: env.WEAVIATE_API_KEY } : {}), ...cacheOptions })
    : availability.pgvector
      ? new PgvectorSemanticCache(database.raw, { ...cacheOptions, ...memoryIndexOptions(env, database, logger) })
      : null;
  return {
    embedder,
    store: weaviate ?? pgvector,
    embedders: [local, ...(mistral ? [mistral] : []), ...(remote ? [remote] : [])],
    stores,
    alpha: env.WEFT_HYBRID_ALPHA,
    unavailable:
      stores.length === 0
        ? "no vector store can hold knowledge bases: this PostgreSQL server has no pgvector (`vector` extension) and WEAVIATE_URL is not set"
        : null,
    semanticCache: cacheStore && new EmbeddingSemanticCache(embedder, cacheStore),
    semanticCacheStore: cacheStore,
    close: async () => {
      await weaviate?.close();
      if (cacheStore instanceof WeaviateSemanticCache) await cacheStore.close();
    },
  };
}

/** WEFT_EMBEDDER=<provider>:<model>: that endpoint's embedder; null for local and mistral. */
function openAiEmbedder(env: Env, openai: OpenAiWiring): Embedder | null {
  if (env.WEFT_EMBEDDER === "local" || env.WEFT_EMBEDDER === "mistral") return null;
  try {
    return createOpenAiEmbedder(embedderChoice(env.WEFT_EMBEDDER, openai.endpoints), openai.readSecret);
  } catch (error) {
    throw new EnvError([(error as Error).message]);
  }
}

/**
 * The embedded database has one writer, this process, so the cache may answer lookups from an
 * in-memory index kept in step with its writes; a server database may have other writers.
 */
function memoryIndexOptions(
  env: Env,
  database: Partial<Pick<Database, "mode" | "dataDir">>,
  logger?: Pick<Logger, "warn">,
): Pick<PgvectorSemanticCacheOptions, "memoryIndex"> {
  if (database.mode !== "embedded" || env.WEFT_CACHE_MEMORY_INDEX_ENTRIES === 0) return {};
  return {
    memoryIndex: {
      maxEntries: env.WEFT_CACHE_MEMORY_INDEX_ENTRIES,
      // Beside the database's data directory (<WEFT_DATA_DIR>/cache-index), so a restart loads the indexes.
      ...(database.dataDir ? { directory: path.join(path.dirname(database.dataDir), "cache-index") } : {}),
      onUnavailable: (scope, error) => logger?.warn({ scope, err: error }, "semantic cache: this scope's lookups go to pgvector, its in-memory index is not available"),
    },
  };
}

/** What model nodes and retrieve / expand nodes search with: the same embedders and stores as the knowledge-base API. */
export function createKnowledgeBaseRetriever(database: Pick<Database, "prisma">, setup: RetrievalSetup): Retriever & KnowledgeBaseSearch {
  return new KnowledgeBaseRetriever({
    lookup: (name) => database.prisma.knowledgeBase.findUnique({ where: { name } }),
    embedders: setup.embedders,
    stores: setup.stores,
    alpha: setup.alpha,
  });
}
