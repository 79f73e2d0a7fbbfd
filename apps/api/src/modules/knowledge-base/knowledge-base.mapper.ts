import type { ScoredChunk } from "@weft/engine";
import type { Document as DocumentRow, KnowledgeBase as KnowledgeBaseRow } from "../../generated/prisma/client.js";
import type { KnowledgeBaseRecord } from "../../retrieval/knowledge-base-record.js";
import type { KnowledgeBaseIndexSettings } from "../../retrieval/ingestion.service.js";
import type {
  ChunkSourceObject,
  KnowledgeBaseDocumentObject,
  KnowledgeBaseObject,
  SearchHitObject,
} from "./knowledge-base.type.js";

export function toKnowledgeBaseObject(row: KnowledgeBaseRow): KnowledgeBaseObject {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    embeddingModel: row.embeddingModel,
    dimension: row.dimension,
    store: row.store,
    chunkSize: row.chunkSize,
    chunkOverlap: row.chunkOverlap,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export type DocumentRowSummary = Omit<DocumentRow, "content" | "source" | "pageStarts"> & { length: number };

export function toDocumentObject(row: DocumentRowSummary): KnowledgeBaseDocumentObject {
  return {
    id: row.id,
    knowledgeBaseId: row.knowledgeBaseId,
    title: row.title,
    mimeType: row.mimeType,
    contentHash: row.contentHash,
    status: row.status,
    error: row.error,
    chunkCount: row.chunkCount,
    length: row.length,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function toIndexSettings(row: KnowledgeBaseRow): KnowledgeBaseIndexSettings & KnowledgeBaseRecord {
  return {
    id: row.id,
    name: row.name,
    embeddingModel: row.embeddingModel,
    dimension: row.dimension,
    store: row.store,
    chunkSize: row.chunkSize,
    chunkOverlap: row.chunkOverlap,
  };
}

export function toChunkSource(source: ScoredChunk["source"]): ChunkSourceObject {
  return { documentId: source.documentId, title: source.title, chunkIndex: source.chunkIndex, page: source.page ?? null };
}

/** The same label a model node's `{context}` shows for the hit (see the engine's formatContext). */
export function sourceLabel(source: ScoredChunk["source"]): string {
  const page = source.page === undefined || source.page === null ? "" : `, page ${source.page}`;
  return `${source.title} (chunk ${source.chunkIndex}${page})`;
}

export function toSearchHit(chunk: ScoredChunk): SearchHitObject {
  return { chunkId: chunk.id, text: chunk.text, score: chunk.score, source: toChunkSource(chunk.source), label: sourceLabel(chunk.source) };
}
