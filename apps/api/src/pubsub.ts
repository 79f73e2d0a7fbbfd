import type { RunEventType } from "@weft/engine";
import type { DocumentStatus } from "./generated/prisma/enums.js";
import type { IngestionPhase } from "./retrieval/ingestion.service.js";

/**
 * Typed topics and the event bus. Events are published only after they are stored, so a subscriber
 * that also reads the database (runEvents replay) misses nothing. The in-process bus serves one API
 * process; the Redis bus (redis/redis-event-bus.ts) serves several.
 */

export type RunStatusValue = "QUEUED" | "RUNNING" | "WAITING" | "COMPLETED" | "FAILED" | "CANCELLED";

/** A run event as stored (RunEvent row) and as published: the same shape, so replay and live agree. */
export interface RunEventMessage {
  runId: string;
  seq: number;
  type: RunEventType;
  /** ISO-8601, when the engine emitted it. */
  at: string;
  nodeId: string | null;
  payload: Record<string, unknown>;
}

export interface RunStatusMessage {
  runId: string;
  workflowId: string;
  /** The published version the run executes; null for a run of the draft. */
  version: number | null;
  status: RunStatusValue;
  at: string;
  /** The run was deleted; `status` is the one it had. */
  deleted?: boolean;
}

/** A committed change of one workflow (graph or settings), or its deletion. Channel: the workflow id. */
export interface WorkflowChangedMessage {
  workflowId: string;
  /** The workflow's version after the change; a deletion carries the last version + 1. */
  version: number;
  at: string;
  deleted: boolean;
}

/** Phases of asynchronous ingestion: the indexing ones plus `queued` (stored PENDING) and `removed`. */
export type IngestionMessagePhase = IngestionPhase | "queued" | "removed";

/** One ingestion step of one document, as published on `ingestionProgress:<knowledgeBaseId>`. */
export interface IngestionProgressMessage {
  knowledgeBaseId: string;
  documentId: string;
  /** The document's status after this step; null once it was removed. */
  status: DocumentStatus | null;
  error: string | null;
  documentIndex: number;
  documentCount: number;
  title: string;
  phase: IngestionMessagePhase;
  chunksDone: number;
  chunksTotal: number;
  /** Phase `extracting` of a PDF: pages read so far and in all. */
  pagesDone?: number;
  pagesTotal?: number;
  /** ISO-8601. */
  at: string;
}

/** An API key was revoked: every process closes the WebSockets opened with it. Channel: ALL_KEYS. */
export interface ApiKeyRevokedMessage {
  keyId: string;
  at: string;
}

/** Asks the process executing a run to abort it (cancelRun through any API process). Channel: ALL_RUNS. */
export interface RunCancelMessage {
  runId: string;
  reason: string;
}

/**
 * A task for a person was opened or closed (SPEC-V3 §2). Channel: ALL_RUNS. The inbox subscription
 * (humanTasksChanged) filters by workflow; the process executing the run takes a closed task's answer.
 */
export interface HumanTaskMessage {
  taskId: string;
  runId: string;
  workflowId: string;
  status: "OPEN" | "COMPLETED" | "EXPIRED" | "CANCELLED";
  at: string;
}

/** Asks the process indexing a knowledge base to stop (it is being deleted). Channel: ALL_RUNS. */
export interface IngestionCancelMessage {
  knowledgeBaseId: string;
  reason: string;
}

/** An experiment's progress (SPEC-V3 §4), after each row and at its end. Channel: the experiment id. */
export interface ExperimentProgressMessage {
  experimentId: string;
  status: "RUNNING" | "COMPLETED" | "CANCELLED" | "FAILED";
  /** Rows the experiment runs, rows whose run completed and was scored, rows whose run did not complete. */
  rows: number;
  completed: number;
  failed: number;
  at: string;
}

/** Topic → payload. On `runEvents` the channel is the run id (`runEvents:<runId>`), in seq order. */
export interface Topics {
  runEvents: RunEventMessage;
  runStatus: RunStatusMessage;
  ingestionProgress: IngestionProgressMessage;
  workflowChanged: WorkflowChangedMessage;
  apiKeyRevoked: ApiKeyRevokedMessage;
  runCancel: RunCancelMessage;
  ingestionCancel: IngestionCancelMessage;
  experimentProgress: ExperimentProgressMessage;
  humanTasks: HumanTaskMessage;
}

export type TopicName = keyof Topics;

export type Unsubscribe = () => void;

export interface SubscribeOptions {
  /**
   * Called after a network bus lost its connection and subscribed again: messages published in between
   * may be lost, so a listener that can read them from the database does so now. Never called by the
   * in-process bus.
   */
  onResync?: () => void;
}

export interface EventBus {
  /**
   * Delivers to every current subscriber of the channel, in publish order. Publishing never fails the
   * publisher: a network bus that is away drops the message (it is stored already; see onResync).
   */
  publish<T extends TopicName>(topic: T, channel: string, payload: Topics[T]): Promise<void>;
  /**
   * Resolves once the subscription is active: everything published after that is delivered.
   * (A network bus resolves after the broker has confirmed.)
   */
  subscribe<T extends TopicName>(
    topic: T,
    channel: string,
    listener: (payload: Topics[T]) => void,
    options?: SubscribeOptions,
  ): Promise<Unsubscribe>;
  close(): Promise<void>;
}

/** Channel used by `runStatus` (one channel; dashboards filter by workflow themselves). */
export const ALL_RUNS = "*";

/** Channel used by `apiKeyRevoked`. */
export const ALL_KEYS = "*";

export class InProcessEventBus implements EventBus {
  readonly #listeners = new Map<string, Set<(payload: never) => void>>();

  async publish<T extends TopicName>(topic: T, channel: string, payload: Topics[T]): Promise<void> {
    const listeners = this.#listeners.get(`${topic}:${channel}`);
    if (!listeners) return;
    for (const listener of [...listeners]) {
      try {
        (listener as (payload: Topics[T]) => void)(payload);
      } catch {
        // One broken subscriber must not stop delivery to the others; listeners only buffer.
      }
    }
  }

  async subscribe<T extends TopicName>(
    topic: T,
    channel: string,
    listener: (payload: Topics[T]) => void,
  ): Promise<Unsubscribe> {
    const key = `${topic}:${channel}`;
    let listeners = this.#listeners.get(key);
    if (!listeners) {
      listeners = new Set();
      this.#listeners.set(key, listeners);
    }
    const entry = listener as (payload: never) => void;
    listeners.add(entry);
    return () => {
      const current = this.#listeners.get(key);
      current?.delete(entry);
      if (current?.size === 0) this.#listeners.delete(key);
    };
  }

  /** Number of active subscriptions, for tests checking that streams clean up. */
  subscriberCount(): number {
    let count = 0;
    for (const listeners of this.#listeners.values()) count += listeners.size;
    return count;
  }

  async close(): Promise<void> {
    this.#listeners.clear();
  }
}
