import { isAbortError, WeftError, type Embedder, type VectorStore } from "@weft/engine";
import type { Document as DocumentRow, KnowledgeBase as KnowledgeBaseRow, PrismaClient } from "../../generated/prisma/client.js";
import type { Logger } from "../../logger.js";
import { estimateChunks, shouldSuspendIndex } from "../../retrieval/bulk-load-policy.js";
import { indexDocument, removeDocumentChunks, type BulkLoadingStore, type KnowledgeBaseIndexSettings } from "../../retrieval/ingestion.service.js";
import { embedderFor, knowledgeBaseCollection, storeFor } from "../../retrieval/knowledge-base-record.js";
import { extractOffThread } from "../../retrieval/document-extraction.js";
import { kindOfMimeType } from "@weft/providers/documents";
import type { IngestionProgressChannel, ProgressUpdate } from "./ingestion-progress.js";
import { toIndexSettings } from "./knowledge-base.mapper.js";
import type { RetrievalSetup } from "./retrieval-setup.js";

/** The reason a document's job is aborted when the document is removed while it is indexed. */
export const DOCUMENT_REMOVED = "the document was removed";

interface InFlight {
  controller: AbortController;
  settled: Promise<void>;
}

/** Publishes a document's progress step. */
type Reporter = (update: Omit<ProgressUpdate, "documentId" | "title" | "documentIndex" | "documentCount">) => void;

interface Pass {
  kb: KnowledgeBaseIndexSettings;
  store: VectorStore;
  embedder: Embedder;
  index: number;
}

/**
 * The ingestion worker: one pass indexes a knowledge base's PENDING documents one after another, oldest
 * first, each PENDING → INDEXING → READY | FAILED. A document either ends READY with all its chunks or
 * FAILED with none (indexDocument removes partial chunks). A pass aborted by shutdown puts its current
 * document back to PENDING (re-queued at the next start); a removed document's job is aborted alone.
 */
export class DocumentIndexer {
  readonly #inFlight = new Map<string, InFlight>();

  constructor(
    private readonly db: PrismaClient,
    private readonly retrieval: RetrievalSetup,
    private readonly progress: IngestionProgressChannel | null,
    private readonly logger: Logger,
  ) {}

  readonly run = async (knowledgeBaseId: string, signal: AbortSignal): Promise<void> => {
    const row = await this.db.knowledgeBase.findUnique({ where: { id: knowledgeBaseId } });
    if (!row) return;
    await this.#takeOverInterrupted(row);
    const pass = this.#startPass(row);
    if (!pass.ok) {
      await this.#failAllPending(row, pass.error);
      return;
    }
    const drain = async () => {
      while (!signal.aborted) {
        const document = await this.db.document.findFirst({
          where: { knowledgeBaseId, status: "PENDING" },
          orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        });
        if (!document) return;
        await this.#indexOne(pass.value, document, signal);
      }
    };
    // Stores that can bulk-load (pgvector) build their index once after a large load (bulk-load-policy.ts).
    const bulk = pass.value.store as VectorStore & Partial<BulkLoadingStore>;
    const collection = knowledgeBaseCollection(pass.value.kb);
    // A file's text is known only once extracted: extracting the pending files first lets the decision
    // count it (a 300-page PDF otherwise looked empty and went into the HNSW graph row by row).
    if (bulk.withIndexSuspended) await this.#extractPending(pass.value, signal);
    if (bulk.withIndexSuspended && bulk.countChunks && shouldSuspendIndex(await this.#pendingChunks(pass.value.kb), await bulk.countChunks(collection))) {
      await bulk.withIndexSuspended(collection, drain);
    } else {
      await drain();
    }
  };

  /** About how many chunks the knowledge base's PENDING documents will yield (their text stays in the database). */
  async #pendingChunks(kb: KnowledgeBaseIndexSettings): Promise<number> {
    const rows = await this.db.$queryRaw<{ chars: bigint | number | string | null }[]>`
      SELECT SUM(LENGTH("content")) AS chars FROM "Document" WHERE "knowledgeBaseId" = ${kb.id} AND "status" = 'PENDING'`;
    return estimateChunks(Number(rows[0]?.chars ?? 0), kb.chunkSize, kb.chunkOverlap);
  }

  /** Aborts the document's job if it runs here and waits until its chunks are cleaned up; false when none ran. */
  async cancelDocument(documentId: string): Promise<boolean> {
    const job = this.#inFlight.get(documentId);
    if (!job) return false;
    job.controller.abort(DOCUMENT_REMOVED);
    await job.settled;
    return true;
  }

  /**
   * After a crash: documents left INDEXING lose their partial chunks and become PENDING again. Returns
   * the knowledge bases that have PENDING documents (to enqueue).
   */
  async recover(): Promise<string[]> {
    const interrupted = await this.db.document.findMany({ where: { status: "INDEXING" }, include: { knowledgeBase: true } });
    for (const document of interrupted) await this.#requeue(document.knowledgeBase, document.id);
    const pending = await this.db.document.findMany({ where: { status: "PENDING" }, distinct: ["knowledgeBaseId"], select: { knowledgeBaseId: true } });
    return pending.map((document) => document.knowledgeBaseId);
  }

  /**
   * Both queues run one pass per knowledge base at a time (the in-process queue by its map of running
   * passes, BullMQ by the knowledge base's id as the job id), so a document still INDEXING when a pass
   * starts, and not being indexed in this process, was left by a pass that died with its process (kill -9):
   * the job came back to the queue as stalled, or the reconciler found it without one. It is taken over:
   * its partial chunks removed, PENDING again for this pass.
   */
  async #takeOverInterrupted(row: KnowledgeBaseRow): Promise<void> {
    const left = await this.db.document.findMany({ where: { knowledgeBaseId: row.id, status: "INDEXING" }, select: { id: true } });
    const orphans = left.filter((document) => !this.#inFlight.has(document.id));
    for (const document of orphans) await this.#requeue(row, document.id);
    if (orphans.length > 0) this.logger.warn({ knowledgeBaseId: row.id, documents: orphans.length }, "took over documents an interrupted pass left indexing");
  }

  /** An interrupted document: its partial chunks removed, PENDING again (unless something else changed it meanwhile). */
  async #requeue(row: KnowledgeBaseRow, documentId: string): Promise<void> {
    const settings = toIndexSettings(row);
    try {
      await removeDocumentChunks(settings, documentId, storeFor(settings, this.retrieval.stores));
    } catch (error) {
      this.logger.warn({ err: error, documentId }, "could not remove the partial chunks of an interrupted document");
    }
    await this.db.document.updateMany({ where: { id: documentId, status: "INDEXING" }, data: { status: "PENDING", chunkCount: 0, error: null } });
  }

  #startPass(row: KnowledgeBaseRow): { ok: true; value: Pass } | { ok: false; error: string } {
    const kb = toIndexSettings(row);
    try {
      return { ok: true, value: { kb, store: storeFor(kb, this.retrieval.stores), embedder: embedderFor(kb, this.retrieval.embedders), index: 0 } };
    } catch (error) {
      return { ok: false, error: describe(error) };
    }
  }

  /**
   * Extracts the text of the pending PDF, DOCX and HTML documents (each claimed INDEXING meanwhile, with
   * page progress, then PENDING again with its text, or FAILED), so the pass knows how much it will index.
   */
  async #extractPending(pass: Pass, signal: AbortSignal): Promise<void> {
    const files = await this.db.document.findMany({
      where: { knowledgeBaseId: pass.kb.id, status: "PENDING", source: { not: null } },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { id: true },
    });
    for (const { id } of files) {
      if (signal.aborted) return;
      const document = await this.db.document.findUnique({ where: { id } });
      if (document?.status === "PENDING" && document.source !== null) await this.#indexOne(pass, document, signal, (claimed, claimSignal) => this.#extractClaimed(pass, claimed, claimSignal));
    }
  }

  async #extractClaimed(pass: Pass, document: DocumentRow, signal: AbortSignal): Promise<void> {
    const report = this.#reporter(pass, document, pass.index, await this.#remaining(pass));
    try {
      await this.#extracted(document, signal, (pagesDone, pagesTotal) => report({ phase: "extracting", chunksDone: 0, chunksTotal: 0, pagesDone, pagesTotal, status: "INDEXING" }));
      await this.db.document.updateMany({ where: { id: document.id, status: "INDEXING" }, data: { status: "PENDING" } });
    } catch (error) {
      await this.#settleFailure(document, error, signal, report);
    }
  }

  #remaining(pass: Pass): Promise<number> {
    return this.db.document.count({ where: { knowledgeBaseId: pass.kb.id, status: "PENDING" } });
  }

  #reporter(pass: Pass, document: DocumentRow, documentIndex: number, remaining: number): Reporter {
    return (update) => this.progress?.publish(pass.kb.id, { documentId: document.id, title: document.title, documentIndex, documentCount: documentIndex + 1 + remaining, ...update });
  }

  async #indexOne(pass: Pass, document: DocumentRow, signal: AbortSignal, work = (claimed: DocumentRow, claimSignal: AbortSignal) => this.#indexClaimed(pass, claimed, claimSignal)): Promise<void> {
    // Registered before the claim, so a removal racing with it either prevents the claim or aborts the job.
    const controller = new AbortController();
    let settle: () => void = () => undefined;
    this.#inFlight.set(document.id, { controller, settled: new Promise((resolve) => (settle = resolve)) });
    const onPassAbort = () => controller.abort(signal.reason);
    signal.addEventListener("abort", onPassAbort, { once: true });
    try {
      const claimed = await this.db.document.updateMany({ where: { id: document.id, status: "PENDING" }, data: { status: "INDEXING", error: null } });
      if (claimed.count > 0) await work(document, controller.signal);
    } finally {
      signal.removeEventListener("abort", onPassAbort);
      this.#inFlight.delete(document.id);
      settle();
    }
  }

  async #indexClaimed(pass: Pass, document: DocumentRow, signal: AbortSignal): Promise<void> {
    const documentIndex = pass.index++;
    const report = this.#reporter(pass, document, documentIndex, await this.#remaining(pass));
    try {
      const text = await this.#extracted(document, signal, (pagesDone, pagesTotal) => report({ phase: "extracting", chunksDone: 0, chunksTotal: 0, pagesDone, pagesTotal, status: "INDEXING" }));
      const chunkCount = await indexDocument(
        {
          kb: pass.kb,
          documentId: document.id,
          document: { title: document.title, content: text.content, mimeType: document.mimeType, pageStarts: text.pageStarts },
          report: (phase, chunksDone, chunksTotal) => report({ phase, chunksDone, chunksTotal, status: "INDEXING" }),
        },
        pass.embedder,
        { store: pass.store, signal },
      );
      const ready = await this.db.document.updateMany({ where: { id: document.id }, data: { status: "READY", chunkCount, error: null } });
      if (ready.count > 0) report({ phase: "ready", chunksDone: chunkCount, chunksTotal: chunkCount, status: "READY" });
      // Removed just as it finished: its chunks must not outlive it.
      else await removeDocumentChunks(pass.kb, document.id, pass.store);
    } catch (error) {
      await this.#settleFailure(document, error, signal, report);
    }
  }

  /**
   * A PDF, DOCX or HTML document's text, extracted on a worker thread (retrieval/document-extraction.ts)
   * with progress by page, then stored in place of the file; a text document's as it is.
   */
  async #extracted(document: DocumentRow, signal: AbortSignal, onPage: (done: number, total: number) => void): Promise<{ content: string; pageStarts: number[] }> {
    if (document.source === null) return { content: document.content, pageStarts: document.pageStarts };
    const kind = kindOfMimeType(document.mimeType);
    if (!kind) throw new WeftError("DOCUMENT_TYPE_UNSUPPORTED", `documents of type ${document.mimeType} cannot be read`);
    onPage(0, 0);
    const extracted = await extractOffThread(document.source, kind, { signal, onPage });
    const pageStarts = extracted.pageStarts ?? [];
    await this.db.document.updateMany({ where: { id: document.id }, data: { content: extracted.text, pageStarts, source: null } });
    return { content: extracted.text, pageStarts };
  }

  async #settleFailure(document: DocumentRow, error: unknown, signal: AbortSignal, report: Reporter): Promise<void> {
    if (signal.aborted && signal.reason === DOCUMENT_REMOVED) {
      report({ phase: "removed", chunksDone: 0, chunksTotal: 0, status: null });
      return;
    }
    if (signal.aborted) {
      // Shutdown or knowledge-base deletion: not the document's fault; the next start indexes it again.
      await this.db.document.updateMany({ where: { id: document.id }, data: { status: "PENDING", chunkCount: 0, error: null } });
      return;
    }
    const message = describe(error);
    await this.db.document.updateMany({ where: { id: document.id }, data: { status: "FAILED", chunkCount: 0, error: message } });
    report({ phase: "failed", chunksDone: 0, chunksTotal: 0, status: "FAILED", error: message });
  }

  async #failAllPending(row: KnowledgeBaseRow, message: string): Promise<void> {
    const pending = await this.db.document.findMany({ where: { knowledgeBaseId: row.id, status: "PENDING" }, select: { id: true, title: true } });
    await this.db.document.updateMany({ where: { knowledgeBaseId: row.id, status: "PENDING" }, data: { status: "FAILED", chunkCount: 0, error: message } });
    for (const [documentIndex, document] of pending.entries()) {
      this.progress?.publish(row.id, {
        documentId: document.id, title: document.title, documentIndex, documentCount: pending.length,
        phase: "failed", chunksDone: 0, chunksTotal: 0, status: "FAILED", error: message,
      });
    }
  }
}

function describe(error: unknown): string {
  const code = error instanceof WeftError ? error.code : isAbortError(error) ? "INGESTION_CANCELLED" : "INGESTION_FAILED";
  return `${code}: ${error instanceof Error ? error.message : String(error)}`;
}
