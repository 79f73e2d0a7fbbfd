/** How far ingestion has come across a knowledge base's documents, and each document's live step. */
export type DocumentStatusValue = "PENDING" | "INDEXING" | "READY" | "FAILED";

export interface IngestionProgress {
  total: number;
  ready: number;
  failed: number;
  inFlight: number;
  /** Share of documents settled (ready or failed), 0..100. */
  pct: number;
  chunks: number;
}

export function ingestionProgress(documents: readonly { status: DocumentStatusValue; chunkCount: number }[]): IngestionProgress {
  let ready = 0;
  let failed = 0;
  let chunks = 0;
  for (const doc of documents) {
    if (doc.status === "READY") ready += 1;
    if (doc.status === "FAILED") failed += 1;
    chunks += doc.chunkCount;
  }
  const total = documents.length;
  const inFlight = total - ready - failed;
  return { total, ready, failed, inFlight, pct: total === 0 ? 100 : Math.round(((ready + failed) / total) * 100), chunks };
}

/** One message of the `ingestionProgress` subscription (the fields the page asks for). */
export interface IngestionStep {
  documentId: string;
  status: DocumentStatusValue | null;
  error: string | null;
  phase: string;
  chunksDone: number;
  chunksTotal: number;
  /** Phase `extracting` of a PDF: pages read so far and in all. */
  pagesDone?: number | null;
  pagesTotal?: number | null;
}

export interface LiveDocument {
  status: DocumentStatusValue;
  phase: string;
  error: string | null;
  chunksDone: number;
  chunksTotal: number;
  pagesDone: number | null;
  pagesTotal: number | null;
}

/** The latest step of every document the subscription has reported on; removed documents drop out. */
export type LiveIngestion = Readonly<Record<string, LiveDocument>>;

export const NO_LIVE_INGESTION: LiveIngestion = {};

/**
 * Folds one step into the live state. A settled document (READY/FAILED) keeps its outcome against a late
 * non-final step; a `removed` step (status null) forgets the document.
 */
export function applyIngestionStep(state: LiveIngestion, step: IngestionStep): LiveIngestion {
  const { [step.documentId]: previous, ...rest } = state;
  if (step.status === null) return rest;
  if (previous && isSettled(previous.status) && !isSettled(step.status) && step.phase !== "queued") return state;
  const next: LiveDocument = {
    status: step.status, phase: step.phase, error: step.error, chunksDone: step.chunksDone, chunksTotal: step.chunksTotal, pagesDone: step.pagesDone ?? null, pagesTotal: step.pagesTotal ?? null,
  };
  return { ...rest, [step.documentId]: next };
}

/**
 * A fetched document as the page shows it: its live step, when one is known, wins over the fetched status, and a
 * document the step reports READY counts the chunks the step reports (the fetched row may predate them).
 */
export function withLiveStatus<T extends { id: string; status: DocumentStatusValue; error: string | null; chunkCount: number }>(
  document: T,
  live: LiveIngestion,
): T & { live: LiveDocument | null } {
  const step = live[document.id];
  if (!step) return { ...document, live: null };
  const chunkCount = step.status === "READY" ? step.chunksTotal : document.chunkCount;
  return { ...document, status: step.status, error: step.error ?? document.error, chunkCount, live: step };
}

/** Share of a PDF's pages read, 0..100, while its text is extracted; null otherwise. */
export function pagePercent(step: LiveDocument | null): number | null {
  if (!step || step.phase !== "extracting" || !step.pagesTotal) return null;
  return Math.round(((step.pagesDone ?? 0) / step.pagesTotal) * 100);
}

/** Share of a document's chunks embedded, 0..100; null before chunking has counted them. */
export function chunkPercent(step: LiveDocument | null): number | null {
  if (!step || step.chunksTotal === 0) return null;
  return Math.round((step.chunksDone / step.chunksTotal) * 100);
}

function isSettled(status: DocumentStatusValue): boolean {
  return status === "READY" || status === "FAILED";
}
