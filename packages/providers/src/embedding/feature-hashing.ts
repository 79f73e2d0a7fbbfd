/**
 * Signed feature hashing ("the hashing trick"): every feature string lands in one of `dimension`
 * buckets with a sign taken from an independent bit, so collisions cancel out on average instead of
 * piling up. FNV-1a is used because it is tiny, fast on short strings and stable across platforms.
 */

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

export function fnv1a(text: string, seed = FNV_OFFSET): number {
  let hash = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, FNV_PRIME);
  }
  return hash >>> 0;
}

/** A final avalanche (murmur3's fmix32) so the sign bit does not correlate with the bucket. */
function mix(hash: number): number {
  let h = hash;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export function addHashedFeature(vector: Float64Array, feature: string, weight: number, seed: number): void {
  const hash = fnv1a(feature, seed);
  const bucket = hash % vector.length;
  const sign = (mix(hash) & 1) === 0 ? 1 : -1;
  vector[bucket] = (vector[bucket] ?? 0) + sign * weight;
}

/** Scales to unit length; a vector with no features stays all zeros. */
export function l2Normalise(vector: Float64Array): number[] {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += (vector[i] ?? 0) ** 2;
  const norm = Math.sqrt(sum);
  const out = new Array<number>(vector.length);
  for (let i = 0; i < vector.length; i++) out[i] = norm === 0 ? 0 : (vector[i] ?? 0) / norm;
  return out;
}
