import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import express, { type ErrorRequestHandler, type RequestHandler, type Response, type Router } from "express";
import { ANONYMOUS, hasScope, type AuthInfo } from "../auth/auth-info.js";
import { authenticate } from "../auth/authenticate.js";
import type { Env } from "../env.js";
import { AppError } from "../errors/app-error.js";
import { createMcpProtocolServer, type McpCaller, type McpToolsService } from "../modules/mcp-server/index.js";
import type { ApiKeyService } from "../modules/api-key/index.js";
import { callerOf, retryAfterSeconds, type RateLimits } from "../rate-limit/rate-limits.js";
import type { RequestLocals } from "./request-context.js";

export interface McpRouteOptions {
  env: Pick<Env, "WEFT_AUTH" | "WEFT_MAX_BODY_BYTES">;
  apiKeys: Pick<ApiKeyService, "authenticate">;
  tools: McpToolsService;
  rateLimits: RateLimits;
}

type McpLocals = RequestLocals & { mcpCaller?: McpCaller };

/** JSON-RPC's code for a server-defined error (the SDK's examples answer HTTP-level refusals with it). */
const SERVER_ERROR = -32000;

/**
 * The MCP server (SPEC-V3 §3), mounted at `/mcp`: streamable HTTP in stateless mode, so any API process
 * answers any request and nothing is kept between them. A POST is authenticated as GraphQL requests are
 * (Bearer API key, scope `run`; 401 without one when WEFT_AUTH=required), spends one point of the
 * caller's request budget (429 with Retry-After), and its body is read within WEFT_MAX_BODY_BYTES (413).
 * GET (a server-to-client stream) and DELETE (ending a session) have nothing to serve without sessions: 405.
 */
export function mcpRouter(options: McpRouteOptions): Router {
  const router = express.Router();
  router.post("/", authorize(options), express.json({ limit: options.env.WEFT_MAX_BODY_BYTES }), async (req, res, next) => {
    const { mcpCaller, logger } = res.locals as McpLocals;
    const server = createMcpProtocolServer(options.tools, mcpCaller!, logger);
    // The body limit again for a body express.json left unread (a JSON media type it does not know).
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, maxRequestBodySize: options.env.WEFT_MAX_BODY_BYTES });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (error) {
      next(error);
    }
  });
  router.all("/", (_req, res) => {
    res.set("Allow", "POST");
    refuse(res, 405, "METHOD_NOT_ALLOWED", "this MCP server is stateless: send requests with POST");
  });
  router.use(mcpErrorHandler(options.env.WEFT_MAX_BODY_BYTES));
  return router;
}

function authorize(options: McpRouteOptions): RequestHandler {
  const { env, apiKeys, rateLimits } = options;
  return async (req, res, next) => {
    const address = req.ip ?? req.socket.remoteAddress;
    let auth: AuthInfo;
    try {
      auth = await authenticate(req.headers.authorization, env, apiKeys);
    } catch (error) {
      if (!(error instanceof AppError)) return next(error);
      // A bad key still costs its address a point, so guessing keys is rate limited too.
      if (await limited(rateLimits, callerOf(ANONYMOUS, address), res)) return;
      return unauthenticated(res, error.message);
    }
    const caller = callerOf(auth, address);
    if (await limited(rateLimits, caller, res)) return;
    if (!auth.authenticated) return unauthenticated(res, "an API key is required: send `Authorization: Bearer <key>`");
    if (!hasScope(auth, "run")) return refuse(res, 403, "FORBIDDEN", "this API key lacks the scope run");
    (res.locals as McpLocals).mcpCaller = { auth, caller };
    next();
  };
}

async function limited(rateLimits: RateLimits, caller: string, res: Response): Promise<boolean> {
  const decision = await rateLimits.requests.take(caller);
  if (decision.allowed) return false;
  const seconds = retryAfterSeconds(decision.retryAfterMs);
  res.set("Retry-After", String(seconds));
  refuse(res, 429, "RATE_LIMITED", `rate limit exceeded: at most ${decision.limit} requests per minute; retry in ${seconds} s`);
  return true;
}

function unauthenticated(res: Response, message: string): void {
  res.set("WWW-Authenticate", 'Bearer realm="weft"');
  refuse(res, 401, "UNAUTHENTICATED", message);
}

/** An HTTP-level refusal as a JSON-RPC error (what MCP clients read), our code and the request id in `data`. */
function refuse(res: Response, status: number, code: string, message: string, data: Record<string, unknown> = {}): void {
  const { requestId } = res.locals as RequestLocals;
  res.status(status).json({ jsonrpc: "2.0", error: { code: SERVER_ERROR, message, data: { code, requestId, ...data } }, id: null });
}

/** Body errors (413, unparsable JSON) in the JSON-RPC shape; anything else is logged and masked. */
function mcpErrorHandler(maxBodyBytes: number): ErrorRequestHandler {
  return (error: { type?: string; status?: number }, _req, res, _next) => {
    if (res.headersSent) return;
    if (error.type === "entity.too.large") return refuse(res, 413, "PAYLOAD_TOO_LARGE", `request body exceeds the limit of ${maxBodyBytes} bytes`, { maxBodyBytes });
    if (error.status && error.status >= 400 && error.status < 500) {
      const { requestId } = res.locals as RequestLocals;
      res.status(error.status).json({ jsonrpc: "2.0", error: { code: -32700, message: "request body is not valid JSON", data: { code: "BAD_REQUEST", requestId } }, id: null });
      return;
    }
    (res.locals as RequestLocals).logger.error({ err: error }, "unexpected error in the MCP server");
    refuse(res, 500, "INTERNAL_SERVER_ERROR", "internal server error");
  };
}
