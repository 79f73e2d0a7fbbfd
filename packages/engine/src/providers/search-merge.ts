import type { ChunkAnchor, PositionedChunk, ScoredChunk } from "./retrieval.js";

/**
 * Pure steps shared by every vector store: merging the hit lists of a multi-query search, and planning
 * and ordering a neighbour lookup. Stores only fetch; these decide, so all stores agree.
 */

/**
 * Merges the hit lists of several queries: one entry per chunk id with its best score, sorted by score
 * (ties: the order in which chunks first appear, query by query), cut to `topK`.
 */
export function mergeSearchResults(lists: readonly (readonly ScoredChunk[])[], topK: number): ScoredChunk[] {
  const best = new Map<string, { hit: ScoredChunk; order: number }>();
  for (const list of lists) {
    for (const hit of list) {
      const seen = best.get(hit.id);
      if (!seen) best.set(hit.id, { hit, order: best.size });
      else if (hit.score > seen.hit.score) seen.hit = hit;
    }
  }
  return [...best.values()]
    .sort((a, b) => b.hit.score - a.hit.score || a.order - b.order)
    .slice(0, topK)
    .map((entry) => entry.hit);
}

/** A document's chunk indexes to fetch, as inclusive ranges. */
export interface NeighbourRange {
  documentId: string;
  from: number;
  to: number;
}

/**
 * The index ranges a neighbour lookup needs: ±window around each anchor, clipped at 0, with
 * overlapping or touching ranges of one document merged, so a store fetches each chunk once.
 */
export function neighbourRanges(anchors: readonly ChunkAnchor[], window: number): NeighbourRange[] {
  const byDocument = new Map<string, [number, number][]>();
  for (const anchor of anchors) {
    const ranges = byDocument.get(anchor.documentId) ?? [];
    ranges.push([Math.max(0, anchor.chunkIndex - window), anchor.chunkIndex + window]);
    byDocument.set(anchor.documentId, ranges);
  }
  const merged: NeighbourRange[] = [];
  for (const [documentId, ranges] of byDocument) {
    ranges.sort((a, b) => a[0] - b[0]);
    let current: [number, number] | undefined;
    for (const range of ranges) {
      if (current && range[0] <= current[1] + 1) current[1] = Math.max(current[1], range[1]);
      else {
        if (current) merged.push({ documentId, from: current[0], to: current[1] });
        current = [...range];
      }
    }
    if (current) merged.push({ documentId, from: current[0], to: current[1] });
  }
  return merged;
}

/** The most chunks a neighbour lookup can return: the sum of its ranges' lengths. */
export function neighbourLimit(ranges: readonly NeighbourRange[]): number {
  return ranges.reduce((sum, range) => sum + (range.to - range.from + 1), 0);
}

/**
 * Orders fetched neighbours for reading: documents in the order their first anchor appears, chunks
 * by index within a document; duplicates (by id) dropped.
 */
export function orderNeighbours(anchors: readonly ChunkAnchor[], chunks: readonly PositionedChunk[]): PositionedChunk[] {
  const documentOrder = new Map<string, number>();
  for (const anchor of anchors) if (!documentOrder.has(anchor.documentId)) documentOrder.set(anchor.documentId, documentOrder.size);
  const unique = new Map<string, PositionedChunk>();
  for (const chunk of chunks) if (!unique.has(chunk.id)) unique.set(chunk.id, chunk);
  const rank = (chunk: PositionedChunk) => documentOrder.get(chunk.source.documentId) ?? Number.MAX_SAFE_INTEGER;
  return [...unique.values()].sort(
    (a, b) => rank(a) - rank(b) || a.source.documentId.localeCompare(b.source.documentId) || a.source.chunkIndex - b.source.chunkIndex || a.id.localeCompare(b.id),
  );
}
