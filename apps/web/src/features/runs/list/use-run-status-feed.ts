"use client";

import { print } from "graphql";
import { createClient } from "graphql-ws";
import { useEffect, useRef, useState } from "react";
import { readApiKey } from "@/lib/api-key-store";
import { useApiEndpoint } from "@/lib/graphql-provider";
import { RunStatusChangedSubscription } from "../runs.operations";

const QUERY = print(RunStatusChangedSubscription);

/**
 * Follows runStatusChanged (optionally for one workflow) and calls `onChange` for every change and
 * after every (re)connection, since changes made while disconnected are not replayed. Returns whether
 * the feed is connected. Its own socket, so "connected" is known even when another page opened the
 * shared one first.
 */
export function useRunStatusFeed(workflowId: string | null, onChange: () => void): boolean {
  const endpoint = useApiEndpoint();
  const [connected, setConnected] = useState(false);
  const latest = useRef(onChange);
  latest.current = onChange;

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
          latest.current();
        },
        closed: () => setConnected(false),
      },
    });
    const unsubscribe = ws.subscribe(
      { query: QUERY, variables: workflowId ? { workflowId } : {} },
      { next: () => latest.current(), error: () => setConnected(false), complete: () => undefined },
    );
    return () => {
      unsubscribe();
      void ws.dispose();
    };
  }, [endpoint.wsUrl, workflowId]);

  return connected;
}
