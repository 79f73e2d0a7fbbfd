"use client";

import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { print } from "graphql";
import { useEffect, useMemo, useRef, useState } from "react";
import { useWsConnection, useSharedSocket } from "./graphql-provider";

export interface SocketFeedHandlers<T> {
  onData: (data: T) => void;
  /** After every (re)connection: the feed's messages are not replayed, so the page refetches. */
  onConnected: () => void;
}

/**
 * A subscription whose messages are not replayed (status changes, ingestion steps), on the app's one
 * WebSocket. Returns whether it is connected: false while the socket is down, and for good once the
 * server refused or ended the subscription (an unknown id, a revoked key), which a reconnect will not
 * mend until the page subscribes again.
 */
export function useSocketFeed<T, V extends Record<string, unknown>>(document: TypedDocumentNode<T, V>, variables: V, handlers: SocketFeedHandlers<T>): boolean {
  const { ws } = useSharedSocket();
  const latest = useRef(handlers);
  latest.current = handlers;
  const connected = useWsConnection(() => latest.current.onConnected());
  const [ended, setEnded] = useState<string | null>(null);
  const query = useMemo(() => print(document), [document]);
  const variablesKey = JSON.stringify(variables);

  useEffect(() => {
    setEnded(null);
    return ws.subscribe<T>(
      { query, variables: JSON.parse(variablesKey) as V },
      {
        next: (result) => {
          if (result.errors?.length) setEnded(variablesKey);
          else if (result.data) latest.current.onData(result.data);
        },
        error: () => setEnded(variablesKey),
        complete: () => setEnded(variablesKey),
      },
    );
  }, [ws, query, variablesKey]);

  return connected && ended !== variablesKey;
}
