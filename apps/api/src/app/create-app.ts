// Decorated GraphQL types need the metadata polyfill before they load; createApp is an entry point for tests and benchmarks too.
import "reflect-metadata";
import type { AddressInfo } from "node:net";
import type { Server as HttpServer } from "node:http";
import type { LlmProvider, ToolProviders } from "@weft/engine";
import { configureWebSearch, GuardedHttpClient, McpClients } from "@weft/providers";
import { databaseOptionsFromEnv, openDatabase, type Database } from "../db/db.js";
import type { Env } from "../env.js";
import { createLogger, type Logger } from "../logger.js";
import { ApiKeyService } from "../modules/api-key/index.js";
import { DatasetService } from "../modules/dataset/index.js";
import { ExperimentService, PublishGateService } from "../modules/experiment/index.js";
import { createKnowledgeBaseRetriever, createRetrievalSetup, hasPgvector, KnowledgeBaseService } from "../modules/knowledge-base/index.js";
import { ModelCatalogService } from "../modules/model/index.js";
import { RunService } from "../modules/run/index.js";
import { SecretService } from "../modules/secret/index.js";
import { SemanticCacheService } from "../modules/semantic-cache/index.js";
import { threadRetention, ThreadService } from "../modules/thread/index.js";
import { sweepFirings, TriggerFiringService, TriggerService } from "../modules/trigger/index.js";
import { openSecretBox } from "../secrets/secret-box.js";
import { startMaintenanceSweep } from "./maintenance-sweep.js";
import { vacuumEmbedded } from "../db/embedded-vacuum.js";
import { WorkflowService } from "../modules/workflow/index.js";
import { WorkflowVersionService } from "../modules/workflow-version/index.js";
import { createRunTracer } from "../metrics/run-tracing.js";
import { WeftMetrics } from "../metrics/weft-metrics.js";
import type { EventBus } from "../pubsub.js";
import type { RunQueue } from "../queue/run-queue.js";
import { createRateLimits } from "../rate-limit/rate-limits.js";
import type { ServiceDeps } from "../service-deps.js";
import type { Services } from "../services.js";
import { TemplateService } from "../modules/template/index.js";
import { demoWorkflow } from "./demo-workflow.js";
import { createLlmProviders } from "./llm-providers.js";
import { loadProviderConfig } from "./provider-config.js";
import { McpCatalogService } from "../modules/mcp/index.js";
import { McpToolsService, WorkflowMcpService } from "../modules/mcp-server/index.js";
import { createNodeRegistry } from "./node-registry.js";
import { checkVectorStores, startupTasks } from "./startup.js";
import { closeRedis } from "../redis/redis-connection.js";
import { createEventBus, createLimitStore, createTaskTimers, createTriggerScheduler, ingestionQueueFactory, runQueueFactory, startReconciler } from "./infrastructure.js";
import { HumanTaskService } from "../modules/human-task/index.js";
import { createHttpService } from "./http-server.js";
import { checkRole, executesRuns, servesApi, type ProcessRole } from "./process-role.js";

export interface CreateAppOptions {
  /** Extra LLM providers (tests and benchmarks); they join the configured ones. */
  providers?: readonly LlmProvider[];
  logger?: Logger;
  /** Use an already open database (tests sharing one); otherwise it is opened from env. */
  database?: Database;
  /** `--role`: api, worker or all (default; one process does everything). */
  role?: ProcessRole;
}

export interface App {
  role: ProcessRole;
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
  const role = options.role ?? "all";
  checkRole(role, env);
  if (env.WEFT_AUTH === "disabled") {
    logger.warn({ host: env.HOST }, "AUTHENTICATION IS DISABLED (WEFT_AUTH=disabled): every caller is admin; local development only");
  }
  // Read before anything opens: a broken providers file stops the start with nothing to close.
  const providerConfig = await loadProviderConfig(env);
  const database = options.database ?? (await openDatabase(databaseOptionsFromEnv(env)));
  const ownsDatabase = !options.database;
  // An embedded database in its own directory keeps a generated key beside it; tests pass WEFT_SECRET_KEY.
  const box = await openSecretBox({ secretKey: env.WEFT_SECRET_KEY, keyDir: ownsDatabase && database.mode === "embedded" ? env.WEFT_DATA_DIR : null });
  const secrets = new SecretService(database.prisma, box, logger);
  // Keys named {secret.NAME} in WEFT_PROVIDERS_FILE are read from the store at each call.
  const openai = { endpoints: providerConfig.endpoints, readSecret: secrets.read };
  const bus = createEventBus(env, logger);
  const limitStore = createLimitStore(env, logger);
  const rateLimits = createRateLimits(env, limitStore);
  let runQueue: RunQueue | null = null;
  const tracer = createRunTracer(env);
  const metrics = new WeftMetrics({
    runCounts: async () => Object.fromEntries((await database.prisma.run.groupBy({ by: ["status"], _count: { _all: true } })).map((row) => [row.status, row._count._all])),
    taskCounts: async () => Object.fromEntries((await database.prisma.humanTask.groupBy({ by: ["status"], _count: { _all: true } })).map((row) => [row.status, row._count._all])),
    queue: () => runQueue?.stats() ?? { queued: 0, running: 0 },
  });
  // Each provider call is timed (metrics) and, with traces on, a span of its own.
  const timedProviders = metrics.instrument(createLlmProviders(env, openai, options.providers));
  const deps: ServiceDeps = {
    env,
    db: database.prisma,
    registry: createNodeRegistry(),
    llm: tracer ? tracer.instrument(timedProviders) : timedProviders,
    logger,
  };
  const retrieval = createRetrievalSetup(env, database, { pgvector: await hasPgvector(database) }, logger, openai);
  const models = new ModelCatalogService(deps);
  const versions = new WorkflowVersionService(deps, models);
  const retriever = createKnowledgeBaseRetriever(database, retrieval);
  // The tool nodes' I/O (SPEC-V2 §6); each run adds the workflow version it executes (the cache scope).
  const mcpClients = providerConfig.mcpServers.size > 0 ? new McpClients(providerConfig.mcpServers, { timeoutMs: env.WEFT_MCP_TIMEOUT_MS, readSecret: secrets.read }) : null;
  const tools: ToolProviders = {
    ...(mcpClients ? { mcp: mcpClients } : {}),
    knowledgeBases: retriever,
    webSearch: configureWebSearch({ tavilyApiKey: env.TAVILY_API_KEY, tavilyServerURL: env.TAVILY_SERVER_URL, tavilyTimeoutMs: env.TAVILY_TIMEOUT_MS }),
    ...(retrieval.semanticCache ? { cache: retrieval.semanticCache } : {}),
    // The http node and http tools: the destination guard with WEFT_HTTP_ALLOW, {secret.NAME} read at each call.
    http: new GuardedHttpClient({ allow: env.WEFT_HTTP_ALLOW, readSecret: secrets.read }),
  };
  // Expiries reach the task service, built after the runs it continues.
  let humanTasks: HumanTaskService | null = null;
  const taskTimers = createTaskTimers(env, role, database.prisma, async (taskId) => (humanTasks ? humanTasks.expire(taskId) : null), logger);
  const runs = new RunService(deps, {
    versionContent: (versionId) => versions.content(versionId),
    retriever,
    tools,
    bus,
    sql: database.raw,
    runBudget: rateLimits.runs,
    createQueue: runQueueFactory(env, role, bus, logger),
    metrics,
    tracer,
    taskTimeouts: { opened: (taskId, expiresAt) => taskTimers.schedule(taskId, expiresAt) },
  });
  runQueue = runs.queue;
  humanTasks = new HumanTaskService(deps, bus, runs);
  const triggerFiring = new TriggerFiringService(database.prisma, runs, box, logger);
  const scheduler = createTriggerScheduler(env, role, database.prisma, (triggerId, tick) => triggerFiring.tick(triggerId, tick), logger);
  const workflows = new WorkflowService(deps, bus);
  const knowledgeBases = new KnowledgeBaseService(deps, retrieval, bus, ingestionQueueFactory(env, role, bus, database.prisma, logger));
  const datasets = new DatasetService(deps);
  const experiments = new ExperimentService(deps, { runs, bus, embedder: retrieval.embedder });
  const publishGates = new PublishGateService(database.prisma, experiments);
  datasets.guardDeletion((datasetId) => experiments.datasetInUse(datasetId));
  datasets.guardDeletion((datasetId) => publishGates.datasetInUse(datasetId));
  versions.setPublishGate((workflowId, draftHash) => publishGates.check(workflowId, draftHash));
  const services: Services = {
    workflows,
    versions,
    runs,
    apiKeys: new ApiKeyService(deps, bus),
    models,
    mcp: new McpCatalogService(mcpClients),
    workflowMcp: new WorkflowMcpService(database.prisma),
    mcpTools: new McpToolsService({ db: database.prisma, registry: deps.registry, versionContents: (versionIds) => versions.contents(versionIds), runs, logger }),
    knowledgeBases,
    templates: new TemplateService({ workflows, knowledgeBases, demo: demoWorkflow, logger }),
    threads: new ThreadService(deps),
    semanticCaches: new SemanticCacheService(retrieval.semanticCacheStore),
    triggers: new TriggerService(deps, box, scheduler),
    datasets,
    experiments,
    secrets,
    publishGates,
    humanTasks,
  };
  await startupTasks({ env, role, services, logger });
  await checkVectorStores(retrieval, logger);
  await scheduler.start();
  if (executesRuns(role)) await taskTimers.restore();
  const reconciler = startReconciler(env, role, database.prisma, { runs: runs.queue, ingestion: services.knowledgeBases.documents.queue }, logger);
  const sweep = executesRuns(role)
    ? startMaintenanceSweep(
        {
          db: database.prisma,
          cacheStore: retrieval.semanticCacheStore,
          retention: threadRetention(env),
          runRetentionDays: env.WEFT_RUN_RETENTION_DAYS > 0 ? env.WEFT_RUN_RETENTION_DAYS : null,
          runs,
          sweepFirings: () => sweepFirings(database.prisma),
          ...(database.mode === "embedded" ? { vacuum: () => vacuumEmbedded(database.raw) } : {}),
          logger,
        },
        env.WEFT_SWEEP_SECONDS,
      )
    : null;

  const http = await createHttpService({ env, role, database, store: retrieval.store, queue: runs.queue, services, rateLimits, bus, logger, metrics, triggerFiring });
  const httpServer = http.httpServer;

  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(env.PORT, env.HOST, () => resolve());
  });
  const address = httpServer.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}/graphql`;
  logger.info({ url, role, database: database.mode, auth: env.WEFT_AUTH, redis: Boolean(env.REDIS_URL) }, servesApi(role) ? "Weft API listening" : "Weft worker listening (health only)");

  let closing: Promise<void> | null = null;
  return {
    role,
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
        await step("http", () => http.close());
        await step("reconciler", async () => reconciler?.stop());
        await step("sweep", async () => sweep?.stop());
        // Before the runs: a tick being fired finishes starting its run.
        await step("schedules", () => scheduler.close());
        await step("task timeouts", () => taskTimers.close());
        // Together: a worker's runs may take their grace period (WEFT_SHUTDOWN_GRACE_MS) while its
        // ingestion passes are handed over at once.
        await step("experiments", () => experiments.close());
        await Promise.all([step("runs", () => runs.close()), step("ingestion", () => services.knowledgeBases.close())]);
        await step("mcp clients", async () => mcpClients?.close());
        await step("vector stores", () => retrieval.close());
        await step("event bus", () => bus.close());
        await step("traces", async () => tracer?.close());
        await step("limits", async () => {
          rateLimits.connections.stop?.();
          if (limitStore) await closeRedis(limitStore.redis);
        });
        if (ownsDatabase) await step("database", () => database.close());
        logger.info({ ms: Math.round(performance.now() - started) }, "stopped");
      })()),
  };
}
