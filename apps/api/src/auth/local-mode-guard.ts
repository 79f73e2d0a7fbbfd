import type { IncomingHttpHeaders } from "node:http";
import type { RequestHandler } from "express";
import { isLoopbackHost } from "../env.js";
import { isAllowedOrigin } from "./allowed-origin.js";

/**
 * WEFT_AUTH=disabled makes every caller an admin and is allowed on a loopback address only. A loopback
 * address alone does not keep a browser out: a page on a DNS-rebinding domain (evil.example resolving to
 * 127.0.0.1) reaches the API with its own name in `Host` and `Origin`. In that mode a request must name
 * a loopback host, and a browser's `Origin` must be the API itself or an allowed origin (CORS_ORIGINS,
 * loopback origins) — over HTTP and for WebSocket upgrades alike.
 */
export interface LocalModeRefusal {
  code: "HOST_NOT_ALLOWED" | "ORIGIN_NOT_ALLOWED";
  message: string;
}

export function localModeRefusal(headers: IncomingHttpHeaders, allowedOrigins: readonly string[]): LocalModeRefusal | null {
  const host = headers.host ?? "";
  if (!isLoopbackHost(hostnameOf(host))) {
    return {
      code: "HOST_NOT_ALLOWED",
      message: `Host "${host.slice(0, 100)}" is not a loopback name; with WEFT_AUTH=disabled only localhost, 127.0.0.1 and [::1] are served`,
    };
  }
  const origin = headers.origin;
  if (origin !== undefined && !isSameOrigin(origin, host) && !isAllowedOrigin(origin, allowedOrigins)) {
    return {
      code: "ORIGIN_NOT_ALLOWED",
      message: `Origin "${origin.slice(0, 100)}" may not call this API with WEFT_AUTH=disabled; add it to CORS_ORIGINS if it is yours`,
    };
  }
  return null;
}

/** Express middleware for WEFT_AUTH=disabled: refuses with 403 and the code before anything else runs. */
export function localModeGuard(allowedOrigins: readonly string[]): RequestHandler {
  return (req, res, next) => {
    const refusal = localModeRefusal(req.headers, allowedOrigins);
    if (!refusal) return next();
    res.status(403).json({ errors: [{ message: refusal.message, extensions: { code: refusal.code } }] });
  };
}

/** `localhost:4000` → `localhost`, `[::1]:4000` → `::1`. */
function hostnameOf(host: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(host);
  if (bracketed) return bracketed[1]!;
  return host.replace(/:\d+$/, "").toLowerCase();
}

function isSameOrigin(origin: string, host: string): boolean {
  try {
    return new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}
