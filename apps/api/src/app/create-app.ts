// Decorated GraphQL types need the metadata polyfill before they load; createApp is an entry point for tests and benchmarks too.
import "reflect-metadata";
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expressMiddleware } from "@as-integrations/express5";
import { createDefaultRegistry, type LlmProvider } from "@weft/engine";
import express from "express";
import { databaseOptionsFromEnv, openDatabase, type Database } from "../db/db.js";
import type { Env } from "../env.js";
import { startApollo } from "../graphql/apollo-server.js";
import { buildWeftSchema } from "../graphql/schema.js";
import { startWsServer } from "../graphql/ws-server.js";
import { createLogger, type Logger } from "../logger.js";
import { ApiKeyService } from "../modules/api-key/index.js";
import { createKnowledgeBaseRetriever, createRetrievalSetup, hasPgvector, KnowledgeBaseService } from "../modules/knowledge-base/index.js";
import { ModelCatalogService } from "../modules/model/index.js";
import { RunService } from "../modules/run/index.js";
import { WorkflowService } from "../modules/workflow/index.js";
import { WorkflowVersionService } from "../modules/workflow-version/index.js";
import { InProcessEventBus, type EventBus } from "../pubsub.js";
import { InProcessRunQueue } from "../queue/in-process-run-queue.js";
import { createRateLimits } from "../rate-limit/rate-limits.js";
import type { ServiceDeps } from "../service-deps.js";
import type { Services } from "../services.js";
import { corsMiddleware } from "./cors.js";
import { healthHandler, readinessHandler } from "./health.js";
import { httpErrorHandler } from "./http-errors.js";
import { localModeGuard } from "../auth/local-mode-guard.js";
import { createLlmProviders } from "./llm-providers.js";
import { requestContextMiddleware } from "./request-context.js";
import { httpContext } from "./http-context.js";
import { checkVectorStores, startupTasks } from "./startup.js";

/** Longer than the idle timeout of clients and load balancers (AWS ALB: 60 s). */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export interface CreateAppOptions {
  /** Extra LLM providers (tests and benchmarks); they join the configured ones. */
  providers?: readonly LlmProvider[];
  logger?: Logger;
  /** Use an already open database (tests sharing one); otherwise it is opened from env. */
  database?: Database;
}

export interface App {
  url: string;
  wsUrl: string;
  httpServer: HttpServer;
  services: Services;
  database: Database;
  bus: EventBus;
  logger: Logger;
  close(): Promise<void>;
}

/**
 * Builds the whole API from a validated Env and listens on env.HOST:env.PORT (port 0: any free port):
 * database (migrated in embedded mode), providers, services, crash recovery, the first admin key, the
 * demo workflow, Apollo on express at /graphql, graphql-ws on the same port and path, /healthz.
 */
export async function createApp(env: Env, options: CreateAppOptions = {}): Promise<App> {
  const logger = options.logger ?? createLogger(env);
  if (env.WEFT_AUTH === "disabled") {
    logger.warn({ host: env.HOST }, "AUTHENTICATION IS DISABLED (WEFT_AUTH=disabled): every caller is admin; local development only");
  }
  const database = options.database ?? (await openDatabase(databaseOptionsFromEnv(env)));
  const ownsDatabase = !options.database;
  const bus = new InProcessEventBus();
  const rateLimits = createRateLimits(env);
  const deps: ServiceDeps = {
    env,
    db: database.prisma,
    registry: createDefaultRegistry(),
    llm: createLlmProviders(env, options.providers),
    logger,
  };
  const retrieval = createRetrievalSetup(env, database, { pgvector: await hasPgvector(database) });
  const models = new ModelCatalogService(deps);
  const versions = new WorkflowVersionService(deps, models);
  const runs = new RunService(deps, {
    versionContent: (versionId) => versions.content(versionId),
    retriever: createKnowledgeBaseRetriever(database, retrieval),
    bus,
    runBudget: rateLimits.runs,
    createQueue: (worker) => new InProcessRunQueue({ worker, concurrency: env.WEFT_PROCESS_CONCURRENCY, logger }),
  });
  const services: Services = {
    workflows: new WorkflowService(deps, bus),
    versions,
    runs,
    apiKeys: new ApiKeyService(deps, bus),
    models,
    knowledgeBases: new KnowledgeBaseService(deps, retrieval, bus),
  };
  await startupTasks({ env, services, logger });
  await checkVectorStores(retrieval, logger);

  const schema = await buildWeftSchema();
  const expressApp = express();
  const httpServer = createServer(expressApp);
  // Idle keep-alive sockets are closed by the client first (undici waits 4 s, proxies up to 60 s), never
  // by us while a request may be on its way: a busy event loop firing our timer late would reset it.
  httpServer.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  httpServer.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  const apollo = await startApollo(schema, httpServer, env);
  expressApp.disable("x-powered-by");
  expressApp.set("trust proxy", rateLimits.proxyTrust);
  expressApp.use(requestContextMiddleware(logger));
  if (env.WEFT_AUTH === "disabled") expressApp.use(localModeGuard(env.CORS_ORIGINS));
  expressApp.use(corsMiddleware(env.CORS_ORIGINS));
  expressApp.get("/healthz", healthHandler(database, runs.queue));
  expressApp.get("/readyz", readinessHandler(database, retrieval.store, runs.queue));
  expressApp.use(
    "/graphql",
    express.json({ limit: env.WEFT_MAX_BODY_BYTES }),
    expressMiddleware(apollo, { context: httpContext({ env, services, rateLimits }) }),
  );
  expressApp.use(httpErrorHandler(env.WEFT_MAX_BODY_BYTES));
  const ws = await startWsServer({ httpServer, schema, env, services, rateLimits, bus, logger });

  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(env.PORT, env.HOST, () => resolve());
  });
  const address = httpServer.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}/graphql`;
  logger.info({ url, database: database.mode, auth: env.WEFT_AUTH }, "Weft API listening");

  let closing: Promise<void> | null = null;
  return {
    url,
    wsUrl: url.replace(/^http/, "ws"),
    httpServer,
    services,
    database,
    bus,
    logger,
    close: () =>
      (closing ??= (async () => {
        const started = performance.now();
        const step = async (name: string, stop: () => Promise<void>) => {
          await stop();
          logger.debug({ step: name, ms: Math.round(performance.now() - started) }, "shutdown step done");
        };
        await step("websocket", () => ws.close());
        await step("http", () => apollo.stop());
        await step("runs", () => runs.close());
        await step("ingestion", () => services.knowledgeBases.close());
        await step("vector stores", () => retrieval.close());
        await step("event bus", () => bus.close());
        if (ownsDatabase) await step("database", () => database.close());
        logger.info({ ms: Math.round(performance.now() - started) }, "stopped");
      })()),
  };
}
