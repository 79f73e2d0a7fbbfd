"use client";

import { createContext, useContext, useEffect, useRef, useState } from "react";
import type { ReactNode } from "react";
import { Provider } from "urql";
import { useT } from "../i18n/i18n-provider";
import type { ApiEndpoint } from "./api-endpoint";
import { readApiKey, subscribeApiKey } from "./api-key-store";
import type { WeftClient } from "./graphql-client";
import { browserApiEndpoint, createWeftClient } from "./graphql-client";
import type { SharedSocket } from "./shared-socket";

const EndpointContext = createContext<ApiEndpoint | null>(null);
const SocketContext = createContext<SharedSocket | null>(null);

/**
 * Builds the client in the browser only (the endpoint depends on window.location) and rebuilds it when
 * the stored API key changes. Children render once the client exists.
 */
export function GraphqlProvider({ children }: { children: ReactNode }) {
  const t = useT();
  const [weft, setWeft] = useState<WeftClient | null>(null);

  useEffect(() => {
    const endpoint = browserApiEndpoint();
    let current = createWeftClient(endpoint, readApiKey());
    setWeft(current);
    const unsubscribe = subscribeApiKey((key) => {
      current.dispose();
      current = createWeftClient(endpoint, key);
      setWeft(current);
    });
    return () => {
      unsubscribe();
      current.dispose();
    };
  }, []);

  if (!weft) {
    return (
      <div className="state state--loading" role="status">
        <span className="spinner" aria-hidden="true" />
        <span>{t("common.state.loading")}</span>
      </div>
    );
  }
  return (
    <EndpointContext.Provider value={weft.endpoint}>
      <SocketContext.Provider value={weft.socket}>
        <Provider value={weft.client}>{children}</Provider>
      </SocketContext.Provider>
    </EndpointContext.Provider>
  );
}

export function useApiEndpoint(): ApiEndpoint {
  const endpoint = useContext(EndpointContext);
  if (!endpoint) throw new Error("useApiEndpoint must be used inside <GraphqlProvider>");
  return endpoint;
}

/** The app's one WebSocket (see shared-socket.ts). */
export function useSharedSocket(): SharedSocket {
  const socket = useContext(SocketContext);
  if (!socket) throw new Error("useSharedSocket must be used inside <GraphqlProvider>");
  return socket;
}

/**
 * Whether the shared WebSocket is connected, calling `onConnected` after every (re)connection: feeds
 * whose messages are not replayed refetch then.
 */
export function useWsConnection(onConnected?: () => void): boolean {
  const socket = useSharedSocket();
  const [connected, setConnected] = useState(socket.isConnected());
  const latest = useRef(onConnected);
  latest.current = onConnected;
  useEffect(() => {
    setConnected(socket.isConnected());
    const offConnected = socket.ws.on("connected", () => {
      setConnected(true);
      latest.current?.();
    });
    const offClosed = socket.ws.on("closed", () => setConnected(false));
    return () => {
      offConnected();
      offClosed();
    };
  }, [socket]);
  return connected;
}
