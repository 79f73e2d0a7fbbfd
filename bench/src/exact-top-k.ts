/** Brute-force cosine top-k over unit vectors held in one Float32Array: the ground truth for recall. */

export class VectorMatrix {
  readonly data: Float32Array;

  constructor(
    readonly count: number,
    readonly dimension: number,
  ) {
    this.data = new Float32Array(count * dimension);
  }

  set(row: number, vector: readonly number[]): void {
    this.data.set(vector, row * this.dimension);
  }

  row(row: number): number[] {
    return Array.from(this.data.subarray(row * this.dimension, (row + 1) * this.dimension));
  }

  dot(row: number, query: readonly number[]): number {
    let dot = 0;
    const offset = row * this.dimension;
    for (let i = 0; i < this.dimension; i++) dot += (this.data[offset + i] as number) * (query[i] as number);
    return dot;
  }

  /** Indices of the k rows with the highest dot product with `query` (cosine, as rows are unit vectors). */
  topK(query: readonly number[], k: number): number[] {
    const best: { index: number; score: number }[] = [];
    const q = Float32Array.from(query);
    for (let row = 0; row < this.count; row++) {
      let dot = 0;
      const offset = row * this.dimension;
      for (let i = 0; i < this.dimension; i++) dot += (this.data[offset + i] as number) * (q[i] as number);
      if (best.length < k || dot > (best[best.length - 1] as { score: number }).score) {
        best.push({ index: row, score: dot });
        best.sort((a, b) => b.score - a.score);
        if (best.length > k) best.pop();
      }
    }
    return best.map((entry) => entry.index);
  }
}

export function recallAtK(found: readonly string[], truth: readonly string[]): number {
  const expected = new Set(truth);
  return found.filter((id) => expected.has(id)).length / truth.length;
}

export { percentile } from "./measure.js";

export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
