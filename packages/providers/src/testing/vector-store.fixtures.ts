import type { StoredChunk } from "@weft/engine";

/** Hand-built 8-dimensional vectors and chunks for the vector-store contract suites. */

export const DIM = 8;

/** A unit vector pointing mostly along `axis`, tilted towards `towards` by `tilt`. */
export function axisVector(axis: number, towards = (axis + 1) % DIM, tilt = 0): number[] {
  const vector = new Array<number>(DIM).fill(0);
  vector[axis] = 1;
  vector[towards] = (vector[towards] ?? 0) + tilt;
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

export function chunk(id: string, vector: number[], overrides: Partial<StoredChunk> & { documentId?: string } = {}): StoredChunk {
  const { documentId = "doc-1", ...rest } = overrides;
  return {
    id,
    text: `text of ${id}`,
    vector,
    source: { documentId, title: `Title of ${documentId}`, chunkIndex: Number(id.replace(/\D/g, "") || 0), page: null },
    ...rest,
  };
}
