import { ProviderError, WeftError, type Embedder } from "@weft/engine";
import { planBatches } from "../embedding/plan-batches.js";
import { MistralClient, type MistralClientOptions } from "./mistral-client.js";

export const MISTRAL_EMBED_MODEL = "mistral-embed";
export const MISTRAL_EMBED_DIMENSION = 1024;

export interface MistralEmbedderOptions extends MistralClientOptions {
  /** Texts per request (default 32). */
  batchSize?: number;
  /** Characters per request, a proxy for Mistral's per-request token limit (default 60,000). */
  maxBatchChars?: number;
}

/** `mistral-embed` through the SDK, batched; vectors come back in input order whatever order the API uses. */
export class MistralEmbedder implements Embedder {
  readonly model = MISTRAL_EMBED_MODEL;
  readonly dimension = MISTRAL_EMBED_DIMENSION;
  private readonly client: MistralClient;
  private readonly batchSize: number;
  private readonly maxBatchChars: number;

  constructor(options: MistralEmbedderOptions) {
    this.client = new MistralClient(options);
    this.batchSize = options.batchSize ?? 32;
    this.maxBatchChars = options.maxBatchChars ?? 60_000;
    if (this.batchSize < 1 || this.maxBatchChars < 1) {
      throw new WeftError("INVALID_EMBEDDER_CONFIG", "Mistral embedder batch limits must be positive.");
    }
  }

  async embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    const vectors: number[][] = [];
    for (const batch of planBatches(texts, this.batchSize, this.maxBatchChars)) {
      vectors.push(...(await this.embedBatch(batch, signal)));
    }
    return vectors;
  }

  private async embedBatch(batch: string[], signal: AbortSignal | undefined): Promise<number[][]> {
    const call = this.client.call("embeddings", signal);
    let data;
    try {
      data = (await this.client.sdk.embeddings.create({ model: this.model, inputs: batch }, { signal: call.signal })).data;
    } catch (error) {
      throw call.fail(error);
    }
    const vectors = new Array<number[] | undefined>(batch.length);
    data.forEach((item, position) => {
      vectors[item.index ?? position] = item.embedding;
    });
    return vectors.map((vector, i) => {
      if (!vector || vector.length !== this.dimension) {
        throw new ProviderError("PROVIDER_ERROR", `Mistral returned ${vector ? `a ${vector.length}-dimensional` : "no"} embedding for input ${i}; expected ${this.dimension} dimensions.`, { retryable: false });
      }
      return vector;
    });
  }
}
