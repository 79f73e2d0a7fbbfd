/** Where the API lives, as seen from the browser. */
export interface ApiEndpoint {
  httpUrl: string;
  wsUrl: string;
}

export const DEFAULT_API_PORT = 4000;

/**
 * Uses the configured URL, else the API's default port on the host that served this page, so a UI opened
 * from another machine still reaches the API beside it.
 */
export function resolveApiEndpoint(configured: string | undefined, location: { protocol: string; hostname: string }): ApiEndpoint {
  const httpUrl = configured ?? `${location.protocol === "https:" ? "https" : "http"}://${formatHost(location.hostname)}:${DEFAULT_API_PORT}/graphql`;
  return { httpUrl, wsUrl: toWebSocketUrl(httpUrl) };
}

/** `http://h:4000/graphql` → `ws://h:4000/graphql`; `https` → `wss`. graphql-ws shares the HTTP path. */
export function toWebSocketUrl(httpUrl: string): string {
  const url = new URL(httpUrl);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.toString();
}

function formatHost(hostname: string): string {
  // An IPv6 literal needs brackets in a URL; location.hostname may give it with or without them.
  return hostname.includes(":") && !hostname.startsWith("[") ? `[${hostname}]` : hostname;
}
