/**
 * Where started runs wait for a worker. Jobs are run ids only (the run's request and snapshot are in
 * the database), so a Redis-backed queue can hand them to another process later.
 */
export type RunWorker = (runId: string, signal: AbortSignal) => Promise<void>;

/** What `cancel` found: the job had not started (and never will), was running (now aborted), or neither. */
export type CancelResult = "dequeued" | "aborted" | "unknown";

export interface RunQueueStats {
  queued: number;
  running: number;
}

export interface RunQueue {
  enqueue(runId: string): void;
  /**
   * Removes a waiting job, or aborts a running one and waits (briefly) for it to settle, so the caller
   * can read the run's final state.
   */
  cancel(runId: string, reason: string): Promise<CancelResult>;
  stats(): RunQueueStats;
  /** Stops taking jobs, aborts the running ones and waits for them to settle. */
  close(): Promise<void>;
}
