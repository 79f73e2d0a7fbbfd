import { isAbortError, WeftError, type Embedder, type StoredChunk, type VectorStore } from "@weft/engine";
import { chunkText, type TextChunk } from "@weft/providers";
import { prepareDocument, type PreparedDocument, type RawDocument } from "./document-content.js";
import { embedderFor, knowledgeBaseCollection, type KnowledgeBaseRecord } from "./knowledge-base-record.js";
import { estimateChunks, shouldSuspendIndex } from "./bulk-load-policy.js";

/**
 * Ingestion: validate → detect duplicates → chunk → embed in batches → upsert. Storage of documents is
 * the caller's (Prisma in the API) through `DocumentPersistence`; vectors go to the knowledge base's
 * store. A document either ends READY with all its chunks stored, or FAILED with none: on any failure
 * its chunks are deleted again before it is marked FAILED. See docs/knowledge-bases.md.
 */

export interface KnowledgeBaseIndexSettings extends KnowledgeBaseRecord {
  chunkSize: number;
  chunkOverlap: number;
}

export interface DocumentPersistence {
  /** An existing document of the knowledge base with this content hash (any status), if any. */
  findByContentHash(knowledgeBaseId: string, contentHash: string): Promise<{ id: string; title: string } | null>;
  /** Stores the document with status INDEXING and returns its id; DUPLICATE_DOCUMENT (WeftError) when the content hash is taken. */
  createDocument(knowledgeBaseId: string, document: PreparedDocument): Promise<{ id: string }>;
  markIndexing(documentId: string): Promise<void>;
  markReady(documentId: string, chunkCount: number): Promise<void>;
  markFailed(documentId: string, error: string): Promise<void>;
}

export type DocumentOutcome =
  | { title: string; status: "READY"; documentId: string; chunkCount: number }
  | { title: string; status: "DUPLICATE"; duplicateOf: { id: string; title: string } }
  | { title: string; status: "FAILED"; documentId: string | null; code: string; message: string };

export type IngestionPhase = "chunking" | "embedding" | "ready" | "duplicate" | "failed";

export interface IngestionProgress {
  documentIndex: number;
  documentCount: number;
  title: string;
  phase: IngestionPhase;
  chunksDone: number;
  chunksTotal: number;
}

export interface IngestionDeps {
  store: VectorStore;
  embedders: readonly Embedder[];
  persistence: DocumentPersistence;
  onProgress?: (progress: IngestionProgress) => void;
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

export interface IndexJob {
  kb: KnowledgeBaseIndexSettings;
  documentId: string;
  document: Pick<PreparedDocument, "title" | "content" | "mimeType">;
  report: (phase: IngestionPhase, done: number, total: number) => void;
}

/** Chunks, embeds and stores one document; on failure removes whatever it stored, then rethrows. */
export async function indexDocument(job: IndexJob, embedder: Embedder, deps: Pick<IngestionDeps, "store" | "signal" | "embedBatchSize">): Promise<number> {
  const { kb, documentId, document } = job;
  const collection = knowledgeBaseCollection(kb);
  const batchSize = deps.embedBatchSize ?? 64;
  try {
    job.report("chunking", 0, 0);
    const chunks = chunkText(document.content, { size: kb.chunkSize, overlap: kb.chunkOverlap, markdown: document.mimeType === "text/markdown" });
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
      throw new WeftError("INGESTION_CLEANUP_FAILED", `Indexing "${document.title}" failed and its partial chunks could not be removed: ${String(cleanup)}`, {
        audience: "operational",
        cause: error,
      });
    });
    throw error;
  }
}

function toStoredChunk(documentId: string, document: IndexJob["document"], chunk: TextChunk, vector: number[] | undefined): StoredChunk {
  if (!vector) throw new WeftError("EMBEDDING_FAILED", `The embedder returned too few vectors for "${document.title}".`, { audience: "operational" });
  return {
    id: chunkId(documentId, chunk.index),
    text: chunk.text,
    vector,
    source: { documentId, title: document.title, chunkIndex: chunk.index, page: null },
    metadata: { heading: chunk.headingPath.join(" > "), start: chunk.start, end: chunk.end, mimeType: document.mimeType },
  };
}

function failure(title: string, documentId: string | null, error: unknown): DocumentOutcome {
  const code = error instanceof WeftError ? error.code : isAbortError(error) ? "INGESTION_CANCELLED" : "INGESTION_FAILED";
  const message = error instanceof Error ? error.message : String(error);
  return { title, status: "FAILED", documentId, code, message };
}

/**
 * Another request may store the same text between the duplicate check and the insert; the unique
 * (knowledge base, content hash) index then refuses ours (DUPLICATE_DOCUMENT from the persistence),
 * which is the same per-document outcome as a duplicate found by the check.
 */
async function createUnlessDuplicate(
  knowledgeBaseId: string,
  document: PreparedDocument,
  persistence: DocumentPersistence,
): Promise<{ id: string } | { duplicateOf: { id: string; title: string } }> {
  try {
    return await persistence.createDocument(knowledgeBaseId, document);
  } catch (error) {
    if (!(error instanceof WeftError && error.code === "DUPLICATE_DOCUMENT")) throw error;
    const duplicateOf = await persistence.findByContentHash(knowledgeBaseId, document.contentHash);
    if (!duplicateOf) throw error;
    return { duplicateOf };
  }
}

async function ingestOne(
  kb: KnowledgeBaseIndexSettings,
  raw: RawDocument,
  seen: Map<string, { id: string; title: string }>,
  context: { embedder: Embedder; deps: IngestionDeps; report: IndexJob["report"] },
): Promise<DocumentOutcome> {
  const { deps, report } = context;
  let document: PreparedDocument;
  try {
    document = prepareDocument(raw);
  } catch (error) {
    report("failed", 0, 0);
    return failure(raw.title, null, error);
  }
  const duplicateOf = seen.get(document.contentHash) ?? (await deps.persistence.findByContentHash(kb.id, document.contentHash));
  if (duplicateOf) {
    report("duplicate", 0, 0);
    return { title: document.title, status: "DUPLICATE", duplicateOf };
  }
  const created = await createUnlessDuplicate(kb.id, document, deps.persistence);
  if ("duplicateOf" in created) {
    report("duplicate", 0, 0);
    return { title: document.title, status: "DUPLICATE", duplicateOf: created.duplicateOf };
  }
  const { id } = created;
  seen.set(document.contentHash, { id, title: document.title });
  try {
    const chunkCount = await indexDocument({ kb, documentId: id, document, report }, context.embedder, deps);
    await deps.persistence.markReady(id, chunkCount);
    report("ready", chunkCount, chunkCount);
    return { title: document.title, status: "READY", documentId: id, chunkCount };
  } catch (error) {
    const outcome = failure(document.title, id, error);
    await deps.persistence.markFailed(id, outcome.status === "FAILED" ? `${outcome.code}: ${outcome.message}` : "");
    report("failed", 0, 0);
    return outcome;
  }
}

/**
 * Adds documents to a knowledge base, one after another, and returns one outcome per document in
 * input order. Refuses the whole request (throws) only when nothing could be indexed: too many
 * documents, or no embedder for the knowledge base's model (EMBEDDING_MODEL_MISMATCH). When `signal`
 * fires, the document being indexed ends FAILED (INGESTION_CANCELLED, its chunks removed) and the
 * call rejects with the AbortError before starting the next one.
 */
export async function ingestDocuments(kb: KnowledgeBaseIndexSettings, documents: readonly RawDocument[], deps: IngestionDeps): Promise<DocumentOutcome[]> {
  if (documents.length > MAX_DOCUMENTS_PER_REQUEST) {
    throw new WeftError("TOO_MANY_DOCUMENTS", `At most ${MAX_DOCUMENTS_PER_REQUEST} documents can be added at once, got ${documents.length}.`);
  }
  const embedder = embedderFor(kb, deps.embedders);
  const collection = knowledgeBaseCollection(kb);
  await deps.store.ensureCollection(collection, kb.dimension);
  const seen = new Map<string, { id: string; title: string }>();
  const outcomes: DocumentOutcome[] = [];
  const ingestAll = async () => {
    for (const [documentIndex, raw] of documents.entries()) {
      // Cancelled between documents: the finished ones stay READY, the rest are not started.
      deps.signal?.throwIfAborted();
      const report = (phase: IngestionPhase, chunksDone: number, chunksTotal: number) =>
        deps.onProgress?.({ documentIndex, documentCount: documents.length, title: raw.title, phase, chunksDone, chunksTotal });
      outcomes.push(await ingestOne(kb, raw, seen, { embedder, deps, report }));
    }
  };
  const bulk = deps.store as VectorStore & Partial<BulkLoadingStore>;
  if (bulk.withIndexSuspended && bulk.countChunks) {
    const newChunks = documents.reduce((sum, document) => sum + estimateChunks(document.content.length, kb.chunkSize, kb.chunkOverlap), 0);
    if (shouldSuspendIndex(newChunks, await bulk.countChunks(collection))) {
      await bulk.withIndexSuspended(collection, ingestAll);
      return outcomes;
    }
  }
  await ingestAll();
  return outcomes;
}

export interface StoredDocument {
  id: string;
  title: string;
  mimeType: string;
  content: string;
}

export interface ReindexDeps extends Omit<IngestionDeps, "embedders"> {
  /** The embedder to index with now; it may differ from the one the knowledge base was built with. */
  embedder: Embedder;
  listDocuments(knowledgeBaseId: string): Promise<StoredDocument[]>;
  /** Records the embedding model and dimension on the knowledge base (called before indexing). */
  setEmbedding(knowledgeBaseId: string, embeddingModel: string, dimension: number): Promise<void>;
}

/**
 * Rebuilds a knowledge base's vectors from its stored documents: drops the collection, records the
 * embedder's model, re-chunks with the current chunk settings and indexes every document again.
 * This is also how a knowledge base moves to another embedding model.
 */
export async function reindexKnowledgeBase(kb: KnowledgeBaseIndexSettings, deps: ReindexDeps): Promise<DocumentOutcome[]> {
  const collection = knowledgeBaseCollection(kb);
  const current: KnowledgeBaseIndexSettings = { ...kb, embeddingModel: deps.embedder.model, dimension: deps.embedder.dimension };
  await deps.store.dropCollection(collection);
  await deps.setEmbedding(kb.id, current.embeddingModel, current.dimension);
  await deps.store.ensureCollection(collection, current.dimension);
  const documents = await deps.listDocuments(kb.id);
  const outcomes: DocumentOutcome[] = [];
  // Stores that can bulk-load (pgvector) build their index once, after every document is in.
  const bulk = deps.store as VectorStore & Partial<BulkLoadingStore>;
  const indexAll = () => reindexDocuments(current, documents, deps, outcomes);
  await (bulk.withIndexSuspended ? bulk.withIndexSuspended(collection, indexAll) : indexAll());
  return outcomes;
}

/** A store that can defer index maintenance during a bulk load (PgvectorVectorStore). */
export interface BulkLoadingStore {
  withIndexSuspended<T>(collection: string, work: () => Promise<T>): Promise<T>;
  /** Chunks stored in the collection (decides whether suspending the index pays off). */
  countChunks(collection: string): Promise<number>;
}

async function reindexDocuments(current: KnowledgeBaseIndexSettings, documents: readonly StoredDocument[], deps: ReindexDeps, outcomes: DocumentOutcome[]): Promise<void> {
  for (const [documentIndex, stored] of documents.entries()) {
    const report = (phase: IngestionPhase, chunksDone: number, chunksTotal: number) =>
      deps.onProgress?.({ documentIndex, documentCount: documents.length, title: stored.title, phase, chunksDone, chunksTotal });
    const document = { title: stored.title, content: stored.content, mimeType: stored.mimeType === "text/markdown" ? "text/markdown" : "text/plain" } as const;
    await deps.persistence.markIndexing(stored.id);
    try {
      const chunkCount = await indexDocument({ kb: current, documentId: stored.id, document, report }, deps.embedder, deps);
      await deps.persistence.markReady(stored.id, chunkCount);
      report("ready", chunkCount, chunkCount);
      outcomes.push({ title: stored.title, status: "READY", documentId: stored.id, chunkCount });
    } catch (error) {
      const outcome = failure(stored.title, stored.id, error);
      await deps.persistence.markFailed(stored.id, outcome.status === "FAILED" ? `${outcome.code}: ${outcome.message}` : "");
      report("failed", 0, 0);
      outcomes.push(outcome);
    }
  }
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
