import type { IngestionPhase, IngestionProgress } from "../../retrieval/ingestion.service.js";
import type { EventBus } from "../../pubsub.js";
import { AsyncQueue } from "../common/async-queue.js";

/** One ingestion step of one document, as published on `ingestionProgress:<knowledgeBaseId>`. */
export interface IngestionProgressMessage {
  knowledgeBaseId: string;
  documentIndex: number;
  documentCount: number;
  title: string;
  phase: IngestionPhase;
  chunksDone: number;
  chunksTotal: number;
  /** ISO-8601. */
  at: string;
}

/** Publishes ingestion progress; a failed publish never fails the ingestion it reports on. */
export function publishIngestionProgress(bus: EventBus): (knowledgeBaseId: string, progress: IngestionProgress) => void {
  return (knowledgeBaseId, progress) => {
    const message: IngestionProgressMessage = { knowledgeBaseId, ...progress, at: new Date().toISOString() };
    bus.publish("ingestionProgress", knowledgeBaseId, message).catch(() => undefined);
  };
}

/** Live progress of one knowledge base until the client unsubscribes (no replay: statuses are stored). */
export async function streamIngestionProgress(bus: EventBus, knowledgeBaseId: string): Promise<AsyncIterableIterator<IngestionProgressMessage>> {
  let unsubscribe: (() => void) | null = null;
  const out = new AsyncQueue<IngestionProgressMessage>(() => unsubscribe?.());
  unsubscribe = await bus.subscribe("ingestionProgress", knowledgeBaseId, (message) => out.push(message));
  return out;
}
