import { WeftError } from "@weft/engine";
import { chunkText } from "@weft/providers";
import { Prisma, type KnowledgeBase as KnowledgeBaseRow, type PrismaClient } from "../../generated/prisma/client.js";
import { AppError } from "../../errors/app-error.js";
import type { RawDocument } from "../../retrieval/document-content.js";
import {
  chunkId,
  ingestDocuments,
  reindexKnowledgeBase,
  removeDocumentChunks,
  type DocumentOutcome,
  type DocumentPersistence,
  type IngestionProgress,
} from "../../retrieval/ingestion.service.js";
import { storeFor } from "../../retrieval/knowledge-base-record.js";
import type { ServiceDeps } from "../../services.js";
import { afterCursorWhere, buildPage, decodeCursor, resolvePageSize, type Page } from "../common/pagination.js";
import { userError, type UserError } from "../common/user-error.type.js";
import { prepareDocuments } from "./knowledge-base-input.validation.js";
import { toChunkSource, toDocumentObject, toIndexSettings, type DocumentRowSummary } from "./knowledge-base.mapper.js";
import type { KnowledgeBaseChunkObject, KnowledgeBaseDocumentObject } from "./knowledge-base.type.js";
import type { KnowledgeBaseOutcome } from "./knowledge-base.service.js";
import { isUuid, operational, operationalSync } from "./knowledge-base.service.js";
import type { RetrievalSetup } from "./retrieval-setup.js";

export interface DocumentsAdded {
  documents: KnowledgeBaseDocumentObject[];
  /** DUPLICATE_DOCUMENT and INGESTION_FAILED, one per document that was not indexed, path ["documents", i]. */
  errors: UserError[];
}

export type ProgressListener = (knowledgeBaseId: string, progress: IngestionProgress) => void;

const SUMMARY_SELECT = {
  id: true, knowledgeBaseId: true, title: true, mimeType: true, contentHash: true, status: true, error: true,
  chunkCount: true, createdAt: true, updatedAt: true, content: true,
} as const;

/** Documents of a knowledge base: add (ingest), remove, re-index, list, and browse their chunks. */
export class KnowledgeBaseDocumentService {
  private readonly db: PrismaClient;
  #onProgress: ProgressListener | undefined;

  constructor(
    deps: Pick<ServiceDeps, "db">,
    private readonly retrieval: RetrievalSetup,
  ) {
    this.db = deps.db;
  }

  /** Ingestion progress goes here as well as into each document's status (for polling clients). */
  onProgress(listener: ProgressListener): void {
    this.#onProgress = listener;
  }

  /**
   * Indexes documents one after another and returns when all are done. Bad input (type, encoding,
   * size, too many) refuses the whole request before anything is stored; a duplicate (same content
   * hash, in the knowledge base or earlier in the request) is skipped and reported; a document whose
   * indexing fails is kept as FAILED with its error and without chunks.
   */
  async add(knowledgeBaseId: string, documents: readonly RawDocument[]): Promise<KnowledgeBaseOutcome<DocumentsAdded>> {
    const prepared = prepareDocuments(documents);
    if (!prepared.ok) return { ok: false, errors: prepared.errors };
    const kb = await this.#requireKnowledgeBase(knowledgeBaseId);
    if (!kb.ok) return kb;
    const store = operationalSync(() => storeFor(toIndexSettings(kb.value), this.retrieval.stores));
    let outcomes: DocumentOutcome[];
    try {
      outcomes = await ingestDocuments(
        toIndexSettings(kb.value),
        prepared.documents.map((document) => ({ ...document, encoding: "TEXT" })),
        { store, embedders: this.retrieval.embedders, persistence: this.#persistence(), onProgress: this.#reporter(knowledgeBaseId) },
      );
    } catch (error) {
      if (error instanceof WeftError && error.code === "EMBEDDING_MODEL_MISMATCH") {
        return { ok: false, errors: [userError(error.code, error.message, { path: ["knowledgeBaseId"] })] };
      }
      throw error instanceof WeftError ? new AppError(error.code, error.message, { audience: error.audience, cause: error }) : error;
    }
    const ids = outcomes.flatMap((outcome) => (outcome.status !== "DUPLICATE" && outcome.documentId ? [outcome.documentId] : []));
    const rows = await this.#summaries({ id: { in: ids } });
    const byId = new Map(rows.map((row) => [row.id, row]));
    return {
      ok: true,
      value: {
        documents: ids.flatMap((id) => (byId.has(id) ? [toDocumentObject(byId.get(id) as DocumentRowSummary)] : [])),
        errors: outcomes.flatMap((outcome, index) => outcomeError(outcome, index)),
      },
    };
  }

  /** Removes the document's chunks from the store, then the document. */
  async remove(documentId: string): Promise<KnowledgeBaseOutcome<string>> {
    const document = isUuid(documentId)
      ? await this.db.document.findUnique({ where: { id: documentId }, include: { knowledgeBase: true } })
      : null;
    if (!document) return { ok: false, errors: [userError("NOT_FOUND", `document "${documentId}" does not exist`, { path: ["documentId"] })] };
    const settings = toIndexSettings(document.knowledgeBase);
    const store = operationalSync(() => storeFor(settings, this.retrieval.stores));
    await operational(() => removeDocumentChunks(settings, documentId, store));
    await this.db.document.delete({ where: { id: documentId } });
    return { ok: true, value: documentId };
  }

  /**
   * Rebuilds every document's chunks with the knowledge base's chunk settings and the configured
   * embedder (which is how a knowledge base moves to another embedding model).
   */
  async reindex(knowledgeBaseId: string): Promise<KnowledgeBaseOutcome<DocumentsAdded>> {
    const kb = await this.#requireKnowledgeBase(knowledgeBaseId);
    if (!kb.ok) return kb;
    const store = operationalSync(() => storeFor(toIndexSettings(kb.value), this.retrieval.stores));
    const outcomes = await operational(() =>
      reindexKnowledgeBase(toIndexSettings(kb.value), {
        store,
        embedder: this.retrieval.embedder,
        persistence: this.#persistence(),
        onProgress: this.#reporter(knowledgeBaseId),
        listDocuments: (id) => this.db.document.findMany({ where: { knowledgeBaseId: id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
        setEmbedding: async (id, embeddingModel, dimension) => {
          await this.db.knowledgeBase.update({ where: { id }, data: { embeddingModel, dimension } });
        },
      }),
    );
    const rows = await this.#summaries({ knowledgeBaseId });
    return {
      ok: true,
      value: { documents: rows.map(toDocumentObject), errors: outcomes.flatMap((outcome, index) => outcomeError(outcome, index)) },
    };
  }

  /** Newest first. */
  async list(knowledgeBaseId: string, args: { first?: number | null; after?: string | null }): Promise<Page<KnowledgeBaseDocumentObject>> {
    const size = resolvePageSize(args.first);
    if (!size.ok) throw new AppError("VALIDATION_FAILED", size.message);
    const cursor = args.after ? decodeCursor(args.after) : null;
    if (args.after && !cursor) throw new AppError("VALIDATION_FAILED", "after is not a valid cursor");
    const where = { knowledgeBaseId, ...(cursor ? afterCursorWhere("createdAt", cursor) : {}) };
    const [rows, totalCount] = await Promise.all([
      this.#summaries(where, size.size + 1),
      this.db.document.count({ where: { knowledgeBaseId } }),
    ]);
    return buildPage(rows, size.size, totalCount, (row) => row.createdAt, toDocumentObject);
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
    const kb = document.knowledgeBase;
    const all = chunkText(document.content, { size: kb.chunkSize, overlap: kb.chunkOverlap, markdown: document.mimeType === "text/markdown" });
    const source = { documentId, title: document.title, page: null };
    return {
      total: all.length,
      chunks: all.slice(offset, offset + limit).map((chunk) => ({
        id: chunkId(documentId, chunk.index),
        text: chunk.text,
        source: toChunkSource({ ...source, chunkIndex: chunk.index }),
      })),
    };
  }

  async #requireKnowledgeBase(id: string): Promise<KnowledgeBaseOutcome<KnowledgeBaseRow>> {
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

  #reporter(knowledgeBaseId: string): ((progress: IngestionProgress) => void) | undefined {
    const listener = this.#onProgress;
    return listener && ((progress) => listener(knowledgeBaseId, progress));
  }

  #persistence(): DocumentPersistence {
    const db = this.db;
    return {
      findByContentHash: (knowledgeBaseId, contentHash) =>
        db.document.findFirst({ where: { knowledgeBaseId, contentHash }, select: { id: true, title: true } }),
      createDocument: async (knowledgeBaseId, document) => {
        try {
          return await db.document.create({ data: { knowledgeBaseId, ...document, status: "INDEXING" }, select: { id: true } });
        } catch (error) {
          // Another request stored the same text between our duplicate check and this insert.
          if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
            throw new WeftError("DUPLICATE_DOCUMENT", `"${document.title}" was added by another request at the same time`, { cause: error });
          }
          throw error;
        }
      },
      markIndexing: async (id) => {
        await db.document.update({ where: { id }, data: { status: "INDEXING", error: null } });
      },
      markReady: async (id, chunkCount) => {
        await db.document.update({ where: { id }, data: { status: "READY", chunkCount, error: null } });
      },
      markFailed: async (id, error) => {
        await db.document.update({ where: { id }, data: { status: "FAILED", chunkCount: 0, error } });
      },
    };
  }
}

function outcomeError(outcome: DocumentOutcome, index: number): UserError[] {
  const path = ["documents", String(index)];
  if (outcome.status === "DUPLICATE") {
    const message = `"${outcome.title}" has the same content as document "${outcome.duplicateOf.title}" (${outcome.duplicateOf.id}); it was not added again`;
    return [userError("DUPLICATE_DOCUMENT", message, { path })];
  }
  if (outcome.status === "FAILED") return [userError("INGESTION_FAILED", `"${outcome.title}": ${outcome.message} (${outcome.code})`, { path })];
  return [];
}
