/**
 * Where started runs wait for a worker. Jobs are run ids only (the run's request and snapshot are in
 * the database), so a Redis-backed queue can hand them to another process later.
 */
export type RunWorker = (runId: string, signal: AbortSignal) => Promise<RunWorkerEnd | void>;

/**
 * What a worker says when it stopped a run without ending it: aborted with HANDOVER_REASON, it stored
 * no terminal event and released its claim, so the queue hands the job to another worker at once.
 */
export type RunWorkerEnd = "handed over";

/**
 * The abort reason of the runs a stopping worker process still executes when its grace period
 * (WEFT_SHUTDOWN_GRACE_MS) is over: they stop without terminal events and another worker resumes them.
 */
export const HANDOVER_REASON = "the worker process is stopping; another worker continues the run";

/** What `cancel` found: the job had not started (and never will), was running (now aborted), or neither. */
export type CancelResult = "dequeued" | "aborted" | "unknown";

export interface RunQueueStats {
  queued: number;
  running: number;
}

export interface RunQueue {
  enqueue(runId: string): void;
  /**
   * Enqueues a run whose previous job may still be finishing (a WAITING run continued as its task is
   * closed, moments after its execution parked it): the job is added once that one is gone.
   */
  enqueueAgain(runId: string): void;
  /**
   * Removes a waiting job, or aborts a running one and waits (briefly) for it to settle, so the caller
   * can read the run's final state.
   */
  cancel(runId: string, reason: string): Promise<CancelResult>;
  stats(): RunQueueStats;
  /**
   * Whether the worker process named (WORKER_ID, a run's last claim) is still alive: a run taken over
   * from it was not crashed (its job lock lapsed on a busy machine), so the crash rule does not count it.
   */
  workerAlive(workerId: string): Promise<boolean>;
  /** Stops taking jobs, aborts the running ones and waits for them to settle. */
  close(): Promise<void>;
}
