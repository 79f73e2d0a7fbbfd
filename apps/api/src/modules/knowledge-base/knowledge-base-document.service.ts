import { WeftError } from "@weft/engine";
import { Prisma, type KnowledgeBase as KnowledgeBaseRow, type PrismaClient } from "../../generated/prisma/client.js";
import type { RawDocument } from "../../retrieval/document-content.js";
import type { PreparedDocument } from "../../retrieval/document-content.js";
import {
  chunkDocument,
  chunkId,
  createKnowledgeBaseCollection,
  dropKnowledgeBaseCollection,
  removeDocumentChunks,
} from "../../retrieval/ingestion.service.js";
import { embedderFor, storeFor } from "../../retrieval/knowledge-base-record.js";
import type { IngestionQueue, IngestionWorker } from "../../queue/ingestion-queue.js";
import { DocumentIndexer } from "./document-indexer.js";
import type { IngestionProgressChannel, UnfinishedDocument } from "./ingestion-progress.js";
import type { ServiceDeps } from "../../service-deps.js";
import { afterCursorWhere, buildPage, readPage, type Page } from "../common/pagination.js";
import { prepareDocuments } from "./knowledge-base-input.validation.js";
import { toChunkSource, toDocumentObject, toIndexSettings, type DocumentRowSummary } from "./knowledge-base.mapper.js";
import type { KnowledgeBaseChunkObject, KnowledgeBaseDocumentObject } from "./knowledge-base.type.js";
import { operational, operationalSync } from "../../errors/operational.js";
import { isUuid } from "../common/uuid.js";
import type { RetrievalSetup } from "./retrieval-setup.js";
import { userError, type UserError } from "../../errors/user-error.type.js";
import type { Outcome } from "../../errors/outcome.js";

export interface DocumentsAdded {
  documents: KnowledgeBaseDocumentObject[];
  /** DUPLICATE_DOCUMENT at once; INGESTION_FAILED only when waiting for indexing. Path ["documents", i]. */
  errors: UserError[];
}

export interface IngestionOptions {
  /** Answer only once the documents are READY or FAILED (scripts, tests). */
  waitForIndexing?: boolean;
}

const SUMMARY_SELECT = {
  id: true, knowledgeBaseId: true, title: true, mimeType: true, contentHash: true, status: true, error: true,
  chunkCount: true, createdAt: true, updatedAt: true, content: true,
} as const;

/**
 * Documents of a knowledge base: add, remove, re-index, list, and browse their chunks. Adding and
 * re-indexing store documents PENDING and hand the indexing to the ingestion queue (DocumentIndexer).
 */
export class KnowledgeBaseDocumentService {
  private readonly db: PrismaClient;
  readonly queue: IngestionQueue;
  readonly #indexer: DocumentIndexer;

  constructor(
    deps: Pick<ServiceDeps, "db" | "logger">,
    private readonly retrieval: RetrievalSetup,
    private readonly progress: IngestionProgressChannel | null,
    createQueue: (worker: IngestionWorker) => IngestionQueue,
  ) {
    this.db = deps.db;
    this.#indexer = new DocumentIndexer(deps.db, retrieval, progress, deps.logger);
    this.queue = createQueue(this.#indexer.run);
  }

  /** Re-queues what a crash left PENDING or INDEXING (call once at start). */
  async recoverInterrupted(): Promise<number> {
    const knowledgeBaseIds = await this.#indexer.recover();
    for (const id of knowledgeBaseIds) void this.queue.enqueue(id);
    return knowledgeBaseIds.length;
  }

  /**
   * Stores documents PENDING and queues their indexing. Bad input (type, encoding, size, too many)
   * refuses the whole request before anything is stored; a duplicate (same content hash, in the
   * knowledge base or earlier in the request) is skipped and reported at once.
   */
  async add(knowledgeBaseId: string, documents: readonly RawDocument[], options: IngestionOptions = {}): Promise<Outcome<DocumentsAdded>> {
    const prepared = await prepareDocuments(documents);
    if (!prepared.ok) return { ok: false, errors: prepared.errors };
    const kb = await this.#requireKnowledgeBase(knowledgeBaseId);
    if (!kb.ok) return kb;
    const settings = toIndexSettings(kb.value);
    operationalSync(() => storeFor(settings, this.retrieval.stores));
    try {
      embedderFor(settings, this.retrieval.embedders);
    } catch (error) {
      if (error instanceof WeftError && error.code === "EMBEDDING_MODEL_MISMATCH") {
        return { ok: false, errors: [userError(error.code, error.message, { path: ["knowledgeBaseId"] })] };
      }
      throw error;
    }
    const stored = await this.#storePending(knowledgeBaseId, prepared.value);
    const queued = stored.flatMap((entry, index) => ("id" in entry ? [{ id: entry.id, title: prepared.value[index]?.title ?? "" }] : []));
    const ids = queued.map((entry) => entry.id);
    for (const [documentIndex, { id, title }] of queued.entries()) {
      this.progress?.publish(knowledgeBaseId, { documentId: id, title, documentIndex, documentCount: ids.length, phase: "queued", status: "PENDING", chunksDone: 0, chunksTotal: 0 });
    }
    // Read before queueing unless waiting: the answer then shows the PENDING state it announces, never
    // a document the background indexer has already taken.
    const pending = options.waitForIndexing ? null : await this.#summaries({ id: { in: ids } });
    const finished = ids.length > 0 ? this.queue.enqueue(knowledgeBaseId) : Promise.resolve();
    if (pending === null) await finished;
    const rows = pending ?? (await this.#summaries({ id: { in: ids } }));
    const byId = new Map(rows.map((row) => [row.id, row]));
    const errors = stored.flatMap((entry, index) => {
      const path = ["documents", String(index)];
      if ("duplicateOf" in entry) {
        const message = `"${entry.title}" has the same content as document "${entry.duplicateOf.title}" (${entry.duplicateOf.id}); it was not added again`;
        return [userError("DUPLICATE_DOCUMENT", message, { path })];
      }
      const row = byId.get(entry.id);
      return row?.status === "FAILED" ? [userError(failureCode(row.error), `"${row.title}": ${row.error ?? "indexing failed"}`, { path })] : [];
    });
    return { ok: true, value: { documents: ids.flatMap((id) => (byId.has(id) ? [toDocumentObject(byId.get(id) as DocumentRowSummary)] : [])), errors } };
  }

  /** Stores each document PENDING unless its content is already in the knowledge base (or earlier in the request). */
  async #storePending(
    knowledgeBaseId: string,
    documents: readonly PreparedDocument[],
  ): Promise<Array<{ id: string } | { title: string; duplicateOf: { id: string; title: string } }>> {
    const seen = new Map<string, { id: string; title: string }>();
    const stored: Array<{ id: string } | { title: string; duplicateOf: { id: string; title: string } }> = [];
    for (const document of documents) {
      const duplicateOf =
        seen.get(document.contentHash) ??
        (await this.db.document.findFirst({ where: { knowledgeBaseId, contentHash: document.contentHash }, select: { id: true, title: true } }));
      if (duplicateOf) {
        stored.push({ title: document.title, duplicateOf });
        continue;
      }
      try {
        const row = await this.db.document.create({ data: { knowledgeBaseId, ...document, status: "PENDING" }, select: { id: true } });
        seen.set(document.contentHash, { id: row.id, title: document.title });
        stored.push(row);
      } catch (error) {
        // Another request stored the same text between our duplicate check and this insert.
        if (!(error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")) throw error;
        const other = await this.db.document.findFirst({ where: { knowledgeBaseId, contentHash: document.contentHash }, select: { id: true, title: true } });
        stored.push({ title: document.title, duplicateOf: other ?? { id: "", title: "another request" } });
      }
    }
    return stored;
  }

  /** Cancels the document's indexing if it runs, removes its chunks from the store, then the document. */
  async remove(documentId: string): Promise<Outcome<string>> {
    const document = isUuid(documentId)
      ? await this.db.document.findUnique({ where: { id: documentId }, include: { knowledgeBase: true } })
      : null;
    if (!document) return { ok: false, errors: [userError("NOT_FOUND", `document "${documentId}" does not exist`, { path: ["documentId"] })] };
    const settings = toIndexSettings(document.knowledgeBase);
    const store = operationalSync(() => storeFor(settings, this.retrieval.stores));
    // Deleting the row first keeps the worker from picking it up meanwhile; its running job is then aborted.
    await this.db.document.deleteMany({ where: { id: documentId } });
    const wasIndexing = await this.#indexer.cancelDocument(documentId);
    await operational(() => removeDocumentChunks(settings, documentId, store));
    // A job that was running reported the removal itself.
    if (!wasIndexing && (document.status === "PENDING" || document.status === "INDEXING")) {
      this.progress?.publish(document.knowledgeBaseId, {
        documentId, title: document.title, documentIndex: 0, documentCount: 1, phase: "removed", status: null, chunksDone: 0, chunksTotal: 0,
      });
    }
    return { ok: true, value: documentId };
  }

  /**
   * Rebuilds every document's chunks with the knowledge base's chunk settings and the configured
   * embedder (which is how a knowledge base moves to another embedding model): stops a running pass,
   * drops the collection, records the embedder, marks every document PENDING and queues a pass.
   */
  async reindex(knowledgeBaseId: string, options: IngestionOptions = {}): Promise<Outcome<DocumentsAdded>> {
    const kb = await this.#requireKnowledgeBase(knowledgeBaseId);
    if (!kb.ok) return kb;
    const settings = toIndexSettings(kb.value);
    const store = operationalSync(() => storeFor(settings, this.retrieval.stores));
    await this.queue.cancel(knowledgeBaseId, "the knowledge base is re-indexed");
    const { embedder } = this.retrieval;
    await operational(async () => {
      await dropKnowledgeBaseCollection(settings, store);
      await this.db.knowledgeBase.update({ where: { id: knowledgeBaseId }, data: { embeddingModel: embedder.model, dimension: embedder.dimension } });
      await createKnowledgeBaseCollection({ ...settings, embeddingModel: embedder.model, dimension: embedder.dimension }, store);
    });
    await this.db.document.updateMany({ where: { knowledgeBaseId }, data: { status: "PENDING", chunkCount: 0, error: null } });
    const queued = await this.#summaries({ knowledgeBaseId });
    for (const [documentIndex, row] of [...queued].reverse().entries()) {
      this.progress?.publish(knowledgeBaseId, {
        documentId: row.id, title: row.title, documentIndex, documentCount: queued.length, phase: "queued", status: "PENDING", chunksDone: 0, chunksTotal: 0,
      });
    }
    const finished = this.queue.enqueue(knowledgeBaseId);
    // Without waiting, the answer is the state it announces (every document PENDING), read before queueing.
    if (options.waitForIndexing) await finished;
    const rows = options.waitForIndexing ? await this.#summaries({ knowledgeBaseId }) : queued;
    const errors = rows.flatMap((row, index) =>
      row.status === "FAILED" ? [userError("INGESTION_FAILED", `"${row.title}": ${row.error ?? "indexing failed"}`, { path: ["documents", String(index)] })] : [],
    );
    return { ok: true, value: { documents: rows.map(toDocumentObject), errors } };
  }

  /** The knowledge base's PENDING and INDEXING documents, oldest first (replayed to progress subscribers). */
  async unfinished(knowledgeBaseId: string): Promise<UnfinishedDocument[]> {
    return this.db.document.findMany({
      where: { knowledgeBaseId, status: { in: ["PENDING", "INDEXING"] } },
      select: { id: true, title: true, status: true },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
  }

  /** Newest first. */
  async list(knowledgeBaseId: string, args: { first?: number | null; after?: string | null }): Promise<Page<KnowledgeBaseDocumentObject>> {
    const page = readPage(args);
    const where = { knowledgeBaseId, ...(page.after ? afterCursorWhere("createdAt", page.after) : {}) };
    const [rows, totalCount] = await Promise.all([
      this.#summaries(where, page.size + 1),
      this.db.document.count({ where: { knowledgeBaseId } }),
    ]);
    return buildPage(rows, page.size, totalCount, (row) => row.createdAt, toDocumentObject);
  }

  async counts(knowledgeBaseId: string): Promise<{ documents: number; chunks: number }> {
    const result = await this.db.document.aggregate({ where: { knowledgeBaseId }, _count: { _all: true }, _sum: { chunkCount: true } });
    return { documents: result._count._all, chunks: result._sum.chunkCount ?? 0 };
  }

  /**
   * A READY document's chunks, as indexed: chunking is deterministic for the knowledge base's chunk
   * settings, so they are recomputed from the stored text rather than read back from the vector store
   * (which works the same for every store). `offset` pages through them.
   */
  async chunks(documentId: string, offset: number, limit: number): Promise<{ chunks: KnowledgeBaseChunkObject[]; total: number } | null> {
    if (!isUuid(documentId)) return null;
    const document = await this.db.document.findUnique({ where: { id: documentId }, include: { knowledgeBase: true } });
    if (!document) return null;
    if (document.status !== "READY") return { chunks: [], total: 0 };
    const all = chunkDocument(document.content, document.mimeType, document.pageStarts, document.knowledgeBase);
    const source = { documentId, title: document.title };
    return {
      total: all.length,
      chunks: all.slice(offset, offset + limit).map((chunk) => ({
        id: chunkId(documentId, chunk.index),
        text: chunk.text,
        source: toChunkSource({ ...source, chunkIndex: chunk.index, page: chunk.page }),
      })),
    };
  }

  async #requireKnowledgeBase(id: string): Promise<Outcome<KnowledgeBaseRow>> {
    const row = isUuid(id) ? await this.db.knowledgeBase.findUnique({ where: { id } }) : null;
    if (!row) return { ok: false, errors: [userError("NOT_FOUND", `knowledge base "${id}" does not exist`, { path: ["knowledgeBaseId"] })] };
    return { ok: true, value: row };
  }

  async #summaries(where: object, take?: number): Promise<DocumentRowSummary[]> {
    // Content can be megabytes: only its length leaves the database.
    const rows = await this.db.document.findMany({
      where,
      select: SUMMARY_SELECT,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      ...(take ? { take } : {}),
    });
    return rows.map(({ content, ...row }) => ({ ...row, length: content.length }));
  }
}

/** A document's own refusal (DOCUMENT_NO_TEXT, DOCUMENT_TOO_LARGE, …) keeps its code; anything else is INGESTION_FAILED. */
function failureCode(error: string | null): string {
  const code = /^(DOCUMENT_[A-Z_]+):/.exec(error ?? "")?.[1];
  return code ?? "INGESTION_FAILED";
}
