import type { RequestHandler } from "express";

/**
 * Browsers may call the API from the origins listed in CORS_ORIGINS, and from loopback origins
 * (http://localhost:*, http://127.0.0.1:*) so the admin UI works in development without configuration.
 * Authentication is by bearer key, never cookies, so no credentials mode is needed.
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

export function corsMiddleware(allowed: readonly string[]): RequestHandler {
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (origin && isAllowedOrigin(origin, allowed)) {
      res.setHeader("Access-Control-Allow-Origin", origin);
      res.setHeader("Vary", "Origin");
      res.setHeader("Access-Control-Allow-Headers", "Authorization, Content-Type, Apollo-Require-Preflight, X-Request-Id");
      res.setHeader("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
      res.setHeader("Access-Control-Expose-Headers", "X-Request-Id");
      res.setHeader("Access-Control-Max-Age", "600");
    }
    if (req.method === "OPTIONS") {
      res.status(204).end();
      return;
    }
    next();
  };
}
