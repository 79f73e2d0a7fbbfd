import { ProviderError, WeftError, type Embedder } from "@weft/engine";
import { planBatches } from "../embedding/plan-batches.js";
import { OpenAiClient, type OpenAiClientOptions } from "./openai-client.js";

/** Dimensions of OpenAI's own embedding models; other servers' models say theirs in WEFT_PROVIDERS_FILE. */
export const OPENAI_EMBEDDING_DIMENSIONS: Readonly<Record<string, number>> = {
  "text-embedding-3-small": 1536,
  "text-embedding-3-large": 3072,
  "text-embedding-ada-002": 1536,
};

export interface OpenAiEmbedderOptions extends OpenAiClientOptions {
  /** The model as the server names it (`text-embedding-3-small`, `nomic-embed-text`). */
  model: string;
  dimension: number;
  /** Texts per request (default 64). */
  batchSize?: number;
  /** Characters per request, a proxy for the server's per-request token limit (default 100,000). */
  maxBatchChars?: number;
}

/**
 * Embeddings through the `openai` SDK's `/embeddings` endpoint (OpenAI, Ollama, vLLM…), batched; vectors
 * come back in input order whatever order the server uses. Its `model` is `<provider>:<model>`
 * (`openai:text-embedding-3-small`), what a knowledge base records, so two servers' models never mix.
 */
export class OpenAiEmbedder implements Embedder {
  readonly model: string;
  readonly dimension: number;
  readonly #serverModel: string;
  readonly #client: OpenAiClient;
  readonly #batchSize: number;
  readonly #maxBatchChars: number;

  constructor(options: OpenAiEmbedderOptions) {
    this.#client = new OpenAiClient(options);
    this.#serverModel = options.model;
    this.model = `${this.#client.id}:${options.model}`;
    this.dimension = options.dimension;
    this.#batchSize = options.batchSize ?? 64;
    this.#maxBatchChars = options.maxBatchChars ?? 100_000;
    if (!Number.isInteger(this.dimension) || this.dimension < 1 || this.#batchSize < 1 || this.#maxBatchChars < 1) {
      throw new WeftError("INVALID_EMBEDDER_CONFIG", "The embedder's dimension and batch limits must be positive whole numbers.");
    }
  }

  async embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    const vectors: number[][] = [];
    for (const batch of planBatches(texts, this.#batchSize, this.#maxBatchChars)) vectors.push(...(await this.#embedBatch(batch, signal)));
    return vectors;
  }

  async #embedBatch(batch: string[], signal: AbortSignal | undefined): Promise<number[][]> {
    const call = await this.#client.call("embeddings", signal);
    let data: { index?: number; embedding: unknown }[];
    try {
      const response = await this.#client.sdk.embeddings.create({ model: this.#serverModel, input: batch, encoding_format: "float" }, { signal: call.signal, headers: call.headers });
      data = Array.isArray(response?.data) ? response.data : [];
    } catch (error) {
      throw call.fail(error);
    }
    const vectors = new Array<unknown>(batch.length);
    data.forEach((item, position) => {
      vectors[item.index ?? position] = item.embedding;
    });
    return vectors.map((vector, i) => {
      if (!Array.isArray(vector) || vector.length !== this.dimension || !vector.every((x) => typeof x === "number")) {
        const got = Array.isArray(vector) ? `a ${vector.length}-dimensional` : "no";
        throw new ProviderError("PROVIDER_ERROR", `${this.#client.label} returned ${got} embedding for input ${i}; expected ${this.dimension} numbers (${this.model}).`, { retryable: false });
      }
      return vector as number[];
    });
  }
}
