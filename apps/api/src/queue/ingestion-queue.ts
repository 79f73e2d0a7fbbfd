/**
 * Where knowledge bases with PENDING documents wait for indexing. A job is a knowledge-base id only:
 * the worker reads the documents to index from the database, so a Redis-backed queue can hand jobs to
 * another process later.
 */
export type IngestionWorker = (knowledgeBaseId: string, signal: AbortSignal) => Promise<void>;

export interface IngestionQueue {
  /**
   * Asks for a pass over the knowledge base's PENDING documents. Resolves when a pass that started after
   * this call has finished (or was cancelled), which is what `waitForIndexing` waits for.
   */
  enqueue(knowledgeBaseId: string): Promise<void>;
  /** Drops a waiting pass, or aborts the running one and waits for it to settle. */
  cancel(knowledgeBaseId: string, reason: string): Promise<void>;
  stats(): { queued: number; running: number };
  /** Stops taking jobs, aborts the running ones and waits for them to settle. */
  close(): Promise<void>;
}
