/**
 * Where this server's MCP endpoint is and what a client needs to reach it. Pure, so the page and its
 * tests share it; the shape is the `mcp.json` one docs/mcp.md shows (Cursor's `mcpServers`, and others).
 */

/** Placeholder for the key: the browser's own key is an admin's and must not land in a client's config. */
export const KEY_PLACEHOLDER = "weft_…";

/**
 * `/mcp` beside the GraphQL endpoint the UI talks to: `http://h:4000/graphql` → `http://h:4000/mcp`,
 * `https://x/api/graphql` → `https://x/api/mcp` (a path prefix of a proxy is kept; query and hash dropped).
 */
export function mcpEndpointUrl(graphqlHttpUrl: string): string {
  const url = new URL("mcp", graphqlHttpUrl);
  url.search = "";
  url.hash = "";
  return url.toString();
}

/**
 * The client configuration: the URL, and the `Authorization` header when the server requires keys
 * (with `WEFT_AUTH=disabled` loopback callers need none, and a header there would only confuse).
 */
export function mcpClientConfig(endpointUrl: string, authRequired: boolean): string {
  const server: { url: string; headers?: Record<string, string> } = { url: endpointUrl };
  if (authRequired) server.headers = { Authorization: `Bearer ${KEY_PLACEHOLDER}` };
  return JSON.stringify({ mcpServers: { weft: server } }, null, 2);
}
