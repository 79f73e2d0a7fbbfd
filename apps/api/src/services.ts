import type { LlmProviders, NodeTypeRegistry } from "@weft/engine";
import type { Env } from "./env.js";
import type { PrismaClient } from "./generated/prisma/client.js";
import type { Logger } from "./logger.js";
import type { ApiKeyService } from "./modules/api-key/api-key.service.js";
import type { RunService } from "./modules/run/run.service.js";
import type { WorkflowService } from "./modules/workflow/workflow.service.js";
import type { WorkflowVersionService } from "./modules/workflow-version/workflow-version.service.js";
import type { ModelCatalogService } from "./modules/model/model-catalog.service.js";
import type { KnowledgeBaseService } from "./modules/knowledge-base/knowledge-base.service.js";

/**
 * What every service is constructed from (`new XService(deps)`); create-app builds it once.
 * Services never read process.env: they read `deps.env`.
 */
export interface ServiceDeps {
  env: Env;
  db: PrismaClient;
  registry: NodeTypeRegistry;
  /** Configured LLM providers by id (offline always, Mistral when MISTRAL_API_KEY is set). */
  llm: LlmProviders;
  logger: Logger;
}

/**
 * The services resolvers reach through `context.services`. Feature modules add their service here
 * (one line each; knowledgeBases next) and create-app constructs it from ServiceDeps.
 */
export interface Services {
  runs: RunService;
  apiKeys: ApiKeyService;
  workflows: WorkflowService;
  versions: WorkflowVersionService;
  models: ModelCatalogService;
  knowledgeBases: KnowledgeBaseService;
}
