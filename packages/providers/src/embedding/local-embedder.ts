import { WeftError, type Embedder } from "@weft/engine";
import { addHashedFeature, fnv1a, l2Normalise } from "./feature-hashing.js";
import { extractFeatures } from "./text-features.js";

export const LOCAL_EMBEDDER_MODEL = "weft-local-hash-v1";
export const LOCAL_EMBEDDER_DEFAULT_DIMENSION = 512;

export interface LocalEmbedderOptions {
  /** Number of hash buckets. More buckets mean fewer collisions; 256–1024 is sensible. */
  dimension?: number;
}

/**
 * A deterministic embedder that needs no network and no weights: hashed word, bigram and character
 * n-gram features with sublinear term frequency, L2-normalised. It captures lexical overlap, not
 * meaning: paraphrases with different words are not recognised. The model id includes the
 * dimension when it differs from the default, so knowledge bases built with another size are refused.
 */
export class LocalEmbedder implements Embedder {
  readonly model: string;
  readonly dimension: number;
  private readonly seed = fnv1a(LOCAL_EMBEDDER_MODEL);

  constructor(options: LocalEmbedderOptions = {}) {
    const dimension = options.dimension ?? LOCAL_EMBEDDER_DEFAULT_DIMENSION;
    if (!Number.isInteger(dimension) || dimension < 16 || dimension > 8192) {
      throw new WeftError("INVALID_EMBEDDER_CONFIG", `Local embedder dimension must be an integer in 16..8192, got ${dimension}.`);
    }
    this.dimension = dimension;
    this.model = dimension === LOCAL_EMBEDDER_DEFAULT_DIMENSION ? LOCAL_EMBEDDER_MODEL : `${LOCAL_EMBEDDER_MODEL}-${dimension}`;
  }

  async embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    const vectors: number[][] = [];
    for (const text of texts) {
      signal?.throwIfAborted();
      vectors.push(this.embedOne(text));
    }
    return vectors;
  }

  embedOne(text: string): number[] {
    const counts = new Map<string, number>();
    extractFeatures(text, (feature, weight) => counts.set(feature, (counts.get(feature) ?? 0) + weight));
    const vector = new Float64Array(this.dimension);
    for (const [feature, weight] of counts) {
      // Sublinear growth: a word said ten times is not ten times as important.
      addHashedFeature(vector, feature, Math.sign(weight) * Math.log1p(Math.abs(weight)), this.seed);
    }
    return l2Normalise(vector);
  }
}
