import { Client, cacheExchange, fetchExchange, subscriptionExchange } from "@urql/core";
import { env } from "../env";
import type { ApiEndpoint } from "./api-endpoint";
import { resolveApiEndpoint } from "./api-endpoint";
import { browserStorage, readApiUrlOverride } from "./api-url-override";
import { openSharedSocket, type SharedSocket } from "./shared-socket";

export interface WeftClient {
  client: Client;
  endpoint: ApiEndpoint;
  /** The app's one WebSocket, under urql's subscriptions and the pages' own streams alike. */
  socket: SharedSocket;
  /** Closes the WebSocket; call when the client is replaced. */
  dispose(): void;
}

export function browserApiEndpoint(): ApiEndpoint {
  // A run-time choice (?api=…, remembered) wins over the build-time one.
  return resolveApiEndpoint(readApiUrlOverride(window.location, browserStorage()) ?? env.apiUrl, window.location);
}

function authorization(apiKey: string | null): Record<string, string> {
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}

/**
 * One urql client per (endpoint, key): queries and mutations over HTTP, subscriptions over graphql-ws.
 * The WebSocket is lazy (opened by the first subscription) and retries with graphql-ws's backoff; the
 * run-event subscription resumes from its last sequence number, so a reconnect loses nothing.
 */
export function createWeftClient(endpoint: ApiEndpoint, apiKey: string | null): WeftClient {
  const socket = openSharedSocket({ url: endpoint.wsUrl, connectionParams: () => authorization(apiKey) });
  const client = new Client({
    url: endpoint.httpUrl,
    exchanges: [
      cacheExchange,
      fetchExchange,
      subscriptionExchange({
        forwardSubscription(request) {
          const input = { ...request, query: request.query ?? "" };
          return {
            subscribe(sink) {
              const unsubscribe = socket.ws.subscribe(input, sink);
              return { unsubscribe };
            },
          };
        },
      }),
    ],
    fetchOptions: () => ({ headers: authorization(apiKey) }),
    requestPolicy: "cache-and-network",
    // POST always: Apollo Server's CSRF guard refuses simple GET requests, and URLs would log queries.
    preferGetMethod: false,
  });
  return { client, endpoint, socket, dispose: socket.dispose };
}
