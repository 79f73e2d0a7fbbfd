"use client";

import { useState } from "react";
import { useSocketFeed } from "@/lib/use-socket-feed";
import { applyIngestionStep, NO_LIVE_INGESTION, type LiveIngestion } from "./ingestion-progress";
import { IngestionProgressSubscription } from "./knowledge-bases.operations";

/**
 * Follows a knowledge base's ingestionProgress: the server first replays its unfinished documents, then
 * sends every step. `onSettled` runs when a document ends (READY, FAILED, removed) and after every
 * (re)connection, so the fetched list (chunk counts, errors, documents added elsewhere) catches up; the
 * live state restarts on reconnection from the server's replay. Returns the live state and whether the
 * feed is connected.
 */
export function useIngestionFeed(knowledgeBaseId: string, onSettled: () => void): { live: LiveIngestion; connected: boolean } {
  const [live, setLive] = useState<LiveIngestion>(NO_LIVE_INGESTION);
  const connected = useSocketFeed(
    IngestionProgressSubscription,
    { knowledgeBaseId },
    {
      onData: ({ ingestionProgress: step }) => {
        setLive((state) => applyIngestionStep(state, step));
        if (step.status !== "PENDING" && step.status !== "INDEXING") onSettled();
      },
      onConnected: () => {
        setLive(NO_LIVE_INGESTION);
        onSettled();
      },
    },
  );
  return { live, connected };
}
