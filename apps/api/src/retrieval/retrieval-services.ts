import { WeftError, type Embedder, type VectorStore } from "@weft/engine";
import { LocalEmbedder, MistralEmbedder, WeaviateVectorStore } from "@weft/providers";
import type { Env } from "../env.js";
import { KnowledgeBaseRetriever, type KnowledgeBaseLookup } from "./knowledge-base-retriever.js";
import { PgvectorVectorStore, type SqlClient } from "./pgvector-vector-store.js";

/**
 * Builds the retrieval parts once at start-up from the configuration: the vector store (Weaviate when
 * WEAVIATE_URL is set, else pgvector in the embedded database), every usable embedder, the one new
 * knowledge bases use, and the retriever model nodes call. Nothing connects until first use.
 */

export interface RetrievalConfig {
  weaviate: { url: string; grpcPort: number; apiKey?: string | undefined } | null;
  mistral: { apiKey: string; serverURL?: string | undefined } | null;
  /** Embedder for new knowledge bases. */
  embedder: "local" | "mistral";
  pgvectorEfSearch?: number;
  hybridAlpha?: number;
}

export interface RetrievalServices {
  store: VectorStore;
  /** Every configured embedder; a knowledge base is searched with the one matching its model. */
  embedders: readonly Embedder[];
  /** Recorded on knowledge bases created now. */
  defaultEmbedder: Embedder;
  retriever(lookup: KnowledgeBaseLookup): KnowledgeBaseRetriever;
  close(): Promise<void>;
}

export function retrievalConfigFromEnv(
  env: Pick<Env, "MISTRAL_API_KEY" | "MISTRAL_SERVER_URL" | "WEAVIATE_URL" | "WEAVIATE_GRPC_PORT" | "WEAVIATE_API_KEY" | "WEFT_EMBEDDER">,
): RetrievalConfig {
  return {
    weaviate: env.WEAVIATE_URL ? { url: env.WEAVIATE_URL, grpcPort: env.WEAVIATE_GRPC_PORT, apiKey: env.WEAVIATE_API_KEY } : null,
    mistral: env.MISTRAL_API_KEY ? { apiKey: env.MISTRAL_API_KEY, serverURL: env.MISTRAL_SERVER_URL } : null,
    embedder: env.WEFT_EMBEDDER,
  };
}

export function createRetrievalServices(config: RetrievalConfig, sql: SqlClient): RetrievalServices {
  const local = new LocalEmbedder();
  const mistral = config.mistral ? new MistralEmbedder(config.mistral) : null;
  if (config.embedder === "mistral" && !mistral) {
    throw new WeftError("INVALID_PROVIDER_CONFIG", "WEFT_EMBEDDER=mistral needs MISTRAL_API_KEY.", { audience: "operational" });
  }
  const embedders: Embedder[] = mistral ? [local, mistral] : [local];
  const weaviate = config.weaviate ? new WeaviateVectorStore(config.weaviate) : null;
  const store: VectorStore = weaviate ?? new PgvectorVectorStore(sql, config.pgvectorEfSearch === undefined ? {} : { efSearch: config.pgvectorEfSearch });
  return {
    store,
    embedders,
    defaultEmbedder: config.embedder === "mistral" && mistral ? mistral : local,
    retriever: (lookup) =>
      new KnowledgeBaseRetriever({ lookup, embedders, stores: [store], ...(config.hybridAlpha === undefined ? {} : { alpha: config.hybridAlpha }) }),
    close: async () => {
      await weaviate?.close();
    },
  };
}
