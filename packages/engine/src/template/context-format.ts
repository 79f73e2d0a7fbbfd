import type { ScoredChunk } from "../providers/retrieval.js";

/**
 * Formats retrieved chunks as the `{context}` of a prompt. Each hit is numbered and labelled with its
 * source (document title, chunk index, page when known) and its score, so the model can cite sources
 * and a person reading the node run can see where each passage came from.
 */
export function formatContext(chunks: readonly ScoredChunk[]): string {
  return chunks.map((chunk, index) => `${sourceLabel(chunk, index)}\n${chunk.text}`).join("\n\n");
}

function sourceLabel(chunk: ScoredChunk, index: number): string {
  const { title, chunkIndex, page } = chunk.source;
  const location = page === undefined || page === null ? `chunk ${chunkIndex}` : `chunk ${chunkIndex}, page ${page}`;
  return `[${index + 1}] ${title} (${location}; score ${chunk.score.toFixed(3)})`;
}
