/**
 * Browsers may call the API (HTTP and WebSocket alike) from the origins listed in CORS_ORIGINS, and from
 * loopback origins (http://localhost:*, http://127.0.0.1:*) so the admin UI works in development without
 * configuration.
 */
export function isAllowedOrigin(origin: string, allowed: readonly string[]): boolean {
  if (allowed.includes("*") || allowed.includes(origin)) return true;
  try {
    const { protocol, hostname } = new URL(origin);
    return (protocol === "http:" || protocol === "https:") && ["localhost", "127.0.0.1", "[::1]"].includes(hostname);
  } catch {
    return false;
  }
}
