import { createClient, type Client, type ClientOptions } from "graphql-ws";

/**
 * The app's one graphql-ws client: urql's subscriptions and the pages' own streams (a run's events,
 * ingestion progress, run status) all share its socket. graphql-ws tells of connections and closes
 * only as they happen, so whether the socket is open now is tracked here for the pages that open later.
 */
export interface SharedSocket {
  ws: Client;
  isConnected(): boolean;
  dispose(): void;
}

/**
 * Lazy (opened by the first subscription, closed after the last) and retried for ever with
 * graphql-ws's randomised backoff; each subscription is sent again after a reconnect.
 */
export function openSharedSocket(options: Pick<ClientOptions, "url" | "connectionParams" | "webSocketImpl">): SharedSocket {
  const ws = createClient({ ...options, lazy: true, retryAttempts: Infinity, shouldRetry: () => true });
  let connected = false;
  ws.on("connected", () => (connected = true));
  ws.on("closed", () => (connected = false));
  return { ws, isConnected: () => connected, dispose: () => void ws.dispose() };
}
