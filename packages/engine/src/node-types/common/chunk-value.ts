import { isJsonObject, type JsonObject, type JsonValue } from "../../model/json-value.js";
import type { PositionedChunk, ScoredChunk } from "../../providers/retrieval.js";

/**
 * Chunks as they flow between tool nodes (SPEC-V2 §6): `{chunkId, documentId, text, score, source}`
 * with `source` the document's title, plus `chunkIndex` and `page` (for `expand` and citations),
 * `knowledgeBase` (where it came from, so `expand` can look up its neighbours) and `url` for web pages.
 */
export interface ChunkValue extends JsonObject {
  chunkId: string;
  documentId: string;
  text: string;
  score: number;
  source: string;
}

export function chunkValue(chunk: ScoredChunk | (PositionedChunk & { score: number }), extra: JsonObject = {}): ChunkValue {
  return {
    chunkId: chunk.id,
    documentId: chunk.source.documentId,
    text: chunk.text,
    score: chunk.score,
    source: chunk.source.title,
    chunkIndex: chunk.source.chunkIndex,
    page: chunk.source.page ?? null,
    ...extra,
  };
}

function isChunkValue(value: JsonValue): value is ChunkValue {
  return (
    isJsonObject(value) &&
    typeof value.chunkId === "string" &&
    typeof value.documentId === "string" &&
    typeof value.text === "string" &&
    typeof value.score === "number"
  );
}

/**
 * The chunks among a node's input values: each value that is a chunk list (or a single chunk, or a
 * list of chunk lists — a join's `array` of several searches) contributes its chunks, in edge order,
 * each chunk id once (first seen wins). Other values are not chunks and are returned apart (a rerank
 * node's query, for instance).
 */
export function readChunks(values: readonly JsonValue[]): { chunks: ChunkValue[]; others: JsonValue[] } {
  const chunks: ChunkValue[] = [];
  const others: JsonValue[] = [];
  const seen = new Set<string>();
  const add = (chunk: ChunkValue) => {
    if (seen.has(chunk.chunkId)) return;
    seen.add(chunk.chunkId);
    chunks.push(chunk);
  };
  for (const value of values) {
    const held = chunksIn(value, true);
    if (held === null) others.push(value);
    else held.forEach(add);
  }
  return { chunks, others };
}

/** A chunk, a list of chunks or (when `nested`) of chunk lists: its chunks; null for anything else. */
function chunksIn(value: JsonValue, nested: boolean): ChunkValue[] | null {
  if (isChunkValue(value)) return [value];
  if (!Array.isArray(value)) return null;
  const found: ChunkValue[] = [];
  for (const item of value) {
    const inner = isChunkValue(item) ? [item] : nested ? chunksIn(item, false) : null;
    if (inner === null) return null;
    found.push(...inner);
  }
  return found;
}

/** Chunk values back as engine chunks (for node-run details and `{context}` formatting). */
export function toScoredChunk(value: ChunkValue): ScoredChunk {
  return {
    id: value.chunkId,
    text: value.text,
    score: value.score,
    source: {
      documentId: value.documentId,
      title: value.source,
      chunkIndex: typeof value.chunkIndex === "number" ? value.chunkIndex : 0,
      page: typeof value.page === "number" ? value.page : null,
    },
  };
}
