/**
 * When an ingestion should drop the HNSW index and build it once afterwards instead of inserting into
 * it row by row. Measured in PGlite (docs/benchmarks.md, ingest): inserting into the HNSW graph costs
 * ~5 ms per 512-dimension row whatever the statement shape (single-row, multi-row or unnest), while an
 * index-free insert costs ~0.5 ms and a one-pass build ~0.85 ms per row already in the table. Rebuilding
 * therefore pays off while the existing rows are fewer than ~4× the new ones; 2× leaves a margin, and
 * small additions (a few documents) keep the index live so searches meanwhile stay fast.
 */
export const BULK_LOAD_MIN_CHUNKS = 256;
export const BULK_LOAD_MAX_EXISTING_RATIO = 2;

export function shouldSuspendIndex(newChunks: number, existingChunks: number): boolean {
  return newChunks >= BULK_LOAD_MIN_CHUNKS && existingChunks <= BULK_LOAD_MAX_EXISTING_RATIO * newChunks;
}

/** Chunks a text of `length` characters yields at most, before any boundary rounding. */
export function estimateChunks(length: number, chunkSize: number, chunkOverlap: number): number {
  return Math.ceil(length / Math.max(1, chunkSize - chunkOverlap));
}
