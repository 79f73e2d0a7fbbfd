import type { RequestHandler } from "express";
import { isAllowedOrigin } from "../auth/allowed-origin.js";

/**
 * CORS headers for the allowed origins (auth/allowed-origin.ts). Authentication is by bearer key, never
 * cookies, so no credentials mode is needed.
 */
export function corsMiddleware(allowed: readonly string[]): RequestHandler {
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (origin && isAllowedOrigin(origin, allowed)) {
      res.setHeader("Access-Control-Allow-Origin", origin);
      res.setHeader("Vary", "Origin");
      // Mcp-Protocol-Version: MCP clients send it on every request after the handshake (the MCP server at /mcp).
      res.setHeader("Access-Control-Allow-Headers", "Authorization, Content-Type, Apollo-Require-Preflight, X-Request-Id, Mcp-Protocol-Version");
      res.setHeader("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
      res.setHeader("Access-Control-Expose-Headers", "X-Request-Id, WWW-Authenticate");
      res.setHeader("Access-Control-Max-Age", "600");
    }
    if (req.method === "OPTIONS") {
      res.status(204).end();
      return;
    }
    next();
  };
}
