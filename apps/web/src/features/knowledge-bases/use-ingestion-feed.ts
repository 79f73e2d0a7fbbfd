"use client";

import { print } from "graphql";
import { createClient } from "graphql-ws";
import { useEffect, useRef, useState } from "react";
import { readApiKey } from "@/lib/api-key-store";
import { useApiEndpoint } from "@/lib/graphql-provider";
import { applyIngestionStep, NO_LIVE_INGESTION, type IngestionStep, type LiveIngestion } from "./ingestion-progress";
import { IngestionProgressSubscription } from "./knowledge-bases.operations";

const QUERY = print(IngestionProgressSubscription);

/**
 * Follows a knowledge base's ingestionProgress: the server first replays its unfinished documents, then
 * sends every step. `onSettled` runs when a document ends (READY, FAILED, removed) and after every
 * (re)connection, so the fetched list (chunk counts, errors, documents added elsewhere) catches up; the
 * live state restarts on reconnection from the server's replay. Returns the live state and whether the
 * feed is connected.
 */
export function useIngestionFeed(knowledgeBaseId: string, onSettled: () => void): { live: LiveIngestion; connected: boolean } {
  const endpoint = useApiEndpoint();
  const [live, setLive] = useState<LiveIngestion>(NO_LIVE_INGESTION);
  const [connected, setConnected] = useState(false);
  const latest = useRef(onSettled);
  latest.current = onSettled;

  useEffect(() => {
    const apiKey = readApiKey();
    const ws = createClient({
      url: endpoint.wsUrl,
      lazy: false,
      retryAttempts: Infinity,
      shouldRetry: () => true,
      connectionParams: () => (apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      on: {
        connected: () => {
          setConnected(true);
          setLive(NO_LIVE_INGESTION);
          latest.current();
        },
        closed: () => setConnected(false),
      },
    });
    const unsubscribe = ws.subscribe<{ ingestionProgress: IngestionStep }>(
      { query: QUERY, variables: { knowledgeBaseId } },
      {
        next: (result) => {
          const step = result.data?.ingestionProgress;
          if (!step) return;
          setLive((state) => applyIngestionStep(state, step));
          if (step.status !== "PENDING" && step.status !== "INDEXING") latest.current();
        },
        error: () => setConnected(false),
        complete: () => undefined,
      },
    );
    return () => {
      unsubscribe();
      void ws.dispose();
    };
  }, [endpoint.wsUrl, knowledgeBaseId]);

  return { live, connected };
}
