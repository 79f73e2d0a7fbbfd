"use client";

import { createContext, useContext, useEffect, useState } from "react";
import type { ReactNode } from "react";
import { Provider } from "urql";
import { useT } from "../i18n/i18n-provider";
import type { Client as WsClient } from "graphql-ws";
import type { ApiEndpoint } from "./api-endpoint";
import { readApiKey, subscribeApiKey } from "./api-key-store";
import type { WeftClient } from "./graphql-client";
import { browserApiEndpoint, createWeftClient } from "./graphql-client";

const EndpointContext = createContext<ApiEndpoint | null>(null);
const WsContext = createContext<WsClient | null>(null);

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
      <WsContext.Provider value={weft.ws}>
        <Provider value={weft.client}>{children}</Provider>
      </WsContext.Provider>
    </EndpointContext.Provider>
  );
}

export function useApiEndpoint(): ApiEndpoint {
  const endpoint = useContext(EndpointContext);
  if (!endpoint) throw new Error("useApiEndpoint must be used inside <GraphqlProvider>");
  return endpoint;
}

export function useWsClient(): WsClient {
  const ws = useContext(WsContext);
  if (!ws) throw new Error("useWsClient must be used inside <GraphqlProvider>");
  return ws;
}
