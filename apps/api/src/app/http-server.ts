import { createServer, type Server as HttpServer } from "node:http";
import { expressMiddleware } from "@as-integrations/express5";
import type { VectorStore } from "@weft/engine";
import express, { type Express } from "express";
import type { Database } from "../db/db.js";
import type { Env } from "../env.js";
import { startApollo } from "../graphql/apollo-server.js";
import { buildWeftSchema } from "../graphql/schema.js";
import { startWsServer } from "../graphql/ws-server.js";
import type { Logger } from "../logger.js";
import type { WeftMetrics } from "../metrics/weft-metrics.js";
import type { EventBus } from "../pubsub.js";
import type { RunQueue } from "../queue/run-queue.js";
import type { RateLimits } from "../rate-limit/rate-limits.js";
import type { Services } from "../services.js";
import type { TriggerFiringService } from "../modules/trigger/index.js";
import { webhookRouter } from "./webhook-route.js";
import { mcpRouter } from "./mcp-route.js";
import { localModeGuard } from "../auth/local-mode-guard.js";
import { corsMiddleware } from "./cors.js";
import { documentNestingGuard } from "./document-nesting-guard.js";
import { operationLimitsOf } from "../graphql/limits/operation-limits.js";
import { healthHandler, readinessHandler } from "./health.js";
import { httpContext } from "./http-context.js";
import { httpErrorHandler } from "./http-errors.js";
import { servesApi, type ProcessRole } from "./process-role.js";
import { requestContextMiddleware } from "./request-context.js";

/** Longer than the idle timeout of clients and load balancers (AWS ALB: 60 s). */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export interface HttpParts {
  env: Env;
  role: ProcessRole;
  database: Database;
  store: VectorStore;
  queue: RunQueue;
  services: Services;
  rateLimits: RateLimits;
  bus: EventBus;
  logger: Logger;
  metrics: WeftMetrics;
  /** Webhook calls (POST /hooks/<id>), in the processes that serve the API. */
  triggerFiring: TriggerFiringService;
}

export interface HttpService {
  httpServer: HttpServer;
  /** Closes WebSockets and stops accepting requests (in-flight requests finish first). */
  close(): Promise<void>;
}

/**
 * The process's HTTP server: /healthz, /readyz and /metrics (Prometheus) in every role; in the api and all roles also GraphQL
 * (Apollo on express at /graphql) and graphql-ws on the same port and path, webhooks (/hooks/<id>) and the
 * MCP server (/mcp). Not yet listening.
 */
export async function createHttpService(parts: HttpParts): Promise<HttpService> {
  const { env, database, queue, logger } = parts;
  const expressApp = express();
  const httpServer = createServer(expressApp);
  // Idle keep-alive sockets are closed by the client first (undici waits 4 s, proxies up to 60 s), never
  // by us while a request may be on its way: a busy event loop firing our timer late would reset it.
  httpServer.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  httpServer.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  expressApp.disable("x-powered-by");
  expressApp.set("trust proxy", parts.rateLimits.proxyTrust);
  expressApp.use(requestContextMiddleware(logger));
  if (env.WEFT_AUTH === "disabled") expressApp.use(localModeGuard(env.CORS_ORIGINS));
  expressApp.use(corsMiddleware(env.CORS_ORIGINS));
  expressApp.get("/healthz", healthHandler(database, queue));
  expressApp.get("/readyz", readinessHandler(database, parts.store, queue));
  expressApp.get("/metrics", async (_req, res, next) => {
    try {
      const text = await parts.metrics.registry.metrics();
      res.set("Content-Type", parts.metrics.registry.contentType).send(text);
    } catch (error) {
      next(error);
    }
  });
  if (!servesApi(parts.role)) {
    expressApp.use(httpErrorHandler(env.WEFT_MAX_BODY_BYTES));
    return { httpServer, close: () => closeServer(httpServer) };
  }
  return serveGraphql(expressApp, httpServer, parts);
}

async function serveGraphql(expressApp: Express, httpServer: HttpServer, parts: HttpParts): Promise<HttpService> {
  const { env, services, rateLimits, bus, logger } = parts;
  const schema = await buildWeftSchema({ maxValueDepth: env.WEFT_MAX_VALUE_DEPTH });
  const apollo = await startApollo(schema, httpServer, env);
  expressApp.use(webhookRouter({ firing: parts.triggerFiring, rateLimits, maxBodyBytes: env.WEFT_MAX_BODY_BYTES }));
  expressApp.use("/mcp", mcpRouter({ env, apiKeys: services.apiKeys, tools: services.mcpTools, rateLimits }));
  expressApp.use(
    "/graphql",
    express.json({ limit: env.WEFT_MAX_BODY_BYTES }),
    documentNestingGuard(operationLimitsOf(env).nesting),
    expressMiddleware(apollo, { context: httpContext({ env, services, rateLimits }) }),
  );
  expressApp.use(httpErrorHandler(env.WEFT_MAX_BODY_BYTES));
  const ws = await startWsServer({ httpServer, schema, env, services, rateLimits, bus, logger });
  return {
    httpServer,
    close: async () => {
      await ws.close();
      await apollo.stop();
    },
  };
}

function closeServer(server: HttpServer): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}
