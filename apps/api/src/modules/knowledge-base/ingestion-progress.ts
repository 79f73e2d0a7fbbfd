import type { IngestionProgress } from "../../retrieval/ingestion.service.js";
import type { EventBus, IngestionMessagePhase, IngestionProgressMessage } from "../../pubsub.js";
import { AsyncQueue } from "../common/async-queue.js";
import type { DocumentStatus } from "./knowledge-base.type.js";

export type ProgressUpdate = Omit<IngestionProgress, "phase"> & {
  documentId: string;
  phase: IngestionMessagePhase;
  status: DocumentStatus | null;
  error?: string | null;
};

/** An unfinished document as stored, for replay. */
export interface UnfinishedDocument {
  id: string;
  title: string;
  status: DocumentStatus;
}

/**
 * Publishes ingestion progress and remembers the latest step of every unfinished document of this
 * process, so a late subscriber first gets the current state, then live steps. A failed publish never
 * fails the ingestion it reports on.
 */
export class IngestionProgressChannel {
  readonly #latest = new Map<string, IngestionProgressMessage>();

  constructor(private readonly bus: EventBus) {}

  publish(knowledgeBaseId: string, update: ProgressUpdate): void {
    const message: IngestionProgressMessage = { knowledgeBaseId, ...update, error: update.error ?? null, at: new Date().toISOString() };
    if (message.status === "PENDING" || message.status === "INDEXING") this.#latest.set(update.documentId, message);
    else this.#latest.delete(update.documentId);
    this.bus.publish("ingestionProgress", knowledgeBaseId, message).catch(() => undefined);
  }

  /**
   * Subscribes first, then replays the unfinished documents (stored status, with the latest chunk counts
   * known here), then delivers live steps; nothing published meanwhile is lost.
   */
  async stream(
    knowledgeBaseId: string,
    loadUnfinished: () => Promise<UnfinishedDocument[]>,
  ): Promise<AsyncIterableIterator<IngestionProgressMessage>> {
    let unsubscribe: (() => void) | null = null;
    const out = new AsyncQueue<IngestionProgressMessage>(() => unsubscribe?.());
    const live: IngestionProgressMessage[] = [];
    let replayed = false;
    unsubscribe = await this.bus.subscribe("ingestionProgress", knowledgeBaseId, (message) => (replayed ? out.push(message) : live.push(message)));
    const unfinished = await loadUnfinished();
    for (const [index, document] of unfinished.entries()) out.push(this.#replayed(knowledgeBaseId, document, index, unfinished.length));
    for (const message of live) out.push(message);
    replayed = true;
    return out;
  }

  #replayed(knowledgeBaseId: string, document: UnfinishedDocument, index: number, count: number): IngestionProgressMessage {
    const latest = this.#latest.get(document.id);
    if (latest && latest.status === document.status) return latest;
    return {
      knowledgeBaseId, documentId: document.id, status: document.status, error: null, documentIndex: index, documentCount: count,
      title: document.title, phase: document.status === "PENDING" ? "queued" : "chunking", chunksDone: 0, chunksTotal: 0, at: new Date().toISOString(),
    };
  }
}
