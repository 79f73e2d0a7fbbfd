import { WeftError, type Embedder, type StoredChunk, type VectorStore } from "@weft/engine";
import { chunkText, type TextChunk } from "@weft/providers";
import { isMarkdownKind, kindOfMimeType } from "@weft/providers/documents";
import type { PreparedDocument } from "./document-content.js";
import { knowledgeBaseCollection, type KnowledgeBaseRecord } from "./knowledge-base-record.js";

/**
 * Indexing one document: chunk → embed in batches → upsert into the knowledge base's store. The
 * document indexer (modules/knowledge-base/document-indexer.ts) runs it for every queued document; a
 * document either ends with all its chunks stored, or with none: on any failure its chunks are deleted
 * again. See docs/knowledge-bases.md.
 */

export interface KnowledgeBaseIndexSettings extends KnowledgeBaseRecord {
  chunkSize: number;
  chunkOverlap: number;
}

export type IngestionPhase = "extracting" | "chunking" | "embedding" | "ready" | "duplicate" | "failed";

export interface IngestionProgress {
  documentIndex: number;
  documentCount: number;
  title: string;
  phase: IngestionPhase;
  chunksDone: number;
  chunksTotal: number;
  /** While a PDF's text is extracted: pages read so far and in all. */
  pagesDone?: number;
  pagesTotal?: number;
}

export interface IndexDeps {
  store: VectorStore;
  signal?: AbortSignal;
  /** Chunks per embed call (default 64). */
  embedBatchSize?: number;
}

export const MAX_DOCUMENTS_PER_REQUEST = 100;

/** The text that is embedded: title and heading path give a chunk the context its own words lack. */
export function embeddingInput(title: string, chunk: TextChunk): string {
  const heading = chunk.headingPath.join(" > ");
  return [title, heading, chunk.text].filter((part) => part !== "").join("\n");
}

export function chunkId(documentId: string, index: number): string {
  return `${documentId}#${index}`;
}

/** A chunk and the PDF page it comes from (null for documents without pages). */
export type DocumentChunk = TextChunk & { page: number | null };

/**
 * A document's chunks: a PDF's page by page, so each chunk lies on one page (`page`, 1-based, for citations
 * and `page` filters) and chunk indexes run on across pages; others as one text. Deterministic, so the
 * chunks are recomputed from the stored text rather than read back from a store.
 */
export function chunkDocument(content: string, mimeType: string, pageStarts: readonly number[], settings: { chunkSize: number; chunkOverlap: number }): DocumentChunk[] {
  const kind = kindOfMimeType(mimeType);
  const options = { size: settings.chunkSize, overlap: settings.chunkOverlap, markdown: kind !== null && isMarkdownKind(kind) };
  if (pageStarts.length === 0) return chunkText(content, options).map((chunk) => ({ ...chunk, page: null }));
  const chunks: DocumentChunk[] = [];
  pageStarts.forEach((start, index) => {
    const end = pageStarts[index + 1] ?? content.length;
    for (const chunk of chunkText(content.slice(start, end), options)) {
      chunks.push({ ...chunk, index: chunks.length, start: start + chunk.start, end: start + chunk.end, page: index + 1 });
    }
  });
  return chunks;
}

export interface IndexJob {
  kb: KnowledgeBaseIndexSettings;
  documentId: string;
  document: Pick<PreparedDocument, "title" | "content" | "mimeType"> & { pageStarts?: readonly number[] };
  report: (phase: IngestionPhase, done: number, total: number) => void;
}

/** Chunks, embeds and stores one document; on failure removes whatever it stored, then rethrows. */
export async function indexDocument(job: IndexJob, embedder: Embedder, deps: IndexDeps): Promise<number> {
  const { kb, documentId, document } = job;
  const collection = knowledgeBaseCollection(kb);
  const batchSize = deps.embedBatchSize ?? 64;
  try {
    job.report("chunking", 0, 0);
    const chunks = chunkDocument(document.content, document.mimeType, document.pageStarts ?? [], kb);
    for (let start = 0; start < chunks.length; start += batchSize) {
      deps.signal?.throwIfAborted();
      job.report("embedding", start, chunks.length);
      const batch = chunks.slice(start, start + batchSize);
      const vectors = await embedder.embed(batch.map((chunk) => embeddingInput(document.title, chunk)), deps.signal);
      await deps.store.upsert(collection, batch.map((chunk, i) => toStoredChunk(documentId, document, chunk, vectors[i])));
    }
    return chunks.length;
  } catch (error) {
    // Nothing half-indexed may remain searchable.
    await deps.store.deleteDocument(collection, documentId).catch((cleanup: unknown) => {
      // Both failures are named: why indexing stopped (the cause) and why the clean-up did not happen.
      const message =
        `Indexing "${document.title}" failed (${describeFailure(error)}) and its partial chunks could not be removed ` +
        `(${describeFailure(cleanup)}); re-index the knowledge base once the store is back to remove them.`;
      throw new WeftError("INGESTION_CLEANUP_FAILED", message, { audience: "operational", cause: error });
    });
    throw error;
  }
}

/** `CODE: first line of the message`, or the first line alone for errors without a code. */
function describeFailure(error: unknown): string {
  const text = (error instanceof Error ? error.message : String(error)).split("\n")[0]?.trim() || "no message";
  return error instanceof WeftError ? `${error.code}: ${text}` : text;
}

function toStoredChunk(documentId: string, document: IndexJob["document"], chunk: DocumentChunk, vector: number[] | undefined): StoredChunk {
  if (!vector) throw new WeftError("EMBEDDING_FAILED", `The embedder returned too few vectors for "${document.title}".`, { audience: "operational" });
  return {
    id: chunkId(documentId, chunk.index),
    text: chunk.text,
    vector,
    source: { documentId, title: document.title, chunkIndex: chunk.index, page: chunk.page },
    metadata: { heading: chunk.headingPath.join(" > "), start: chunk.start, end: chunk.end, mimeType: document.mimeType },
  };
}

/** A store that can defer index maintenance during a bulk load (PgvectorVectorStore). */
export interface BulkLoadingStore {
  withIndexSuspended<T>(collection: string, work: () => Promise<T>): Promise<T>;
  /** Chunks stored in the collection (decides whether suspending the index pays off). */
  countChunks(collection: string): Promise<number>;
}

/** Removes a document's chunks from the store; the caller then deletes the document row. */
export async function removeDocumentChunks(kb: KnowledgeBaseRecord, documentId: string, store: VectorStore): Promise<void> {
  await store.deleteDocument(knowledgeBaseCollection(kb), documentId);
}

/** Creates the store collection for a new knowledge base (idempotent). */
export async function createKnowledgeBaseCollection(kb: KnowledgeBaseRecord, store: VectorStore): Promise<void> {
  await store.ensureCollection(knowledgeBaseCollection(kb), kb.dimension);
}

/** Drops the store collection of a deleted knowledge base. */
export async function dropKnowledgeBaseCollection(kb: KnowledgeBaseRecord, store: VectorStore): Promise<void> {
  await store.dropCollection(knowledgeBaseCollection(kb));
}
