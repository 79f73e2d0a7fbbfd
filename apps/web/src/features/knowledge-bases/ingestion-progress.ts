/** How far ingestion has come across a knowledge base's documents, and whether to keep polling. */
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

/** Poll quickly while documents are being indexed; stop once all have settled. */
export const pollIntervalMs = (progress: IngestionProgress): number | null => (progress.inFlight > 0 ? 1000 : null);
