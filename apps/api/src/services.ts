import type { ApiKeyService } from "./modules/api-key/index.js";
import type { DatasetService } from "./modules/dataset/index.js";
import type { ExperimentService, PublishGateService } from "./modules/experiment/index.js";
import type { HumanTaskService } from "./modules/human-task/index.js";
import type { KnowledgeBaseService } from "./modules/knowledge-base/index.js";
import type { McpCatalogService } from "./modules/mcp/index.js";
import type { McpToolsService, WorkflowMcpService } from "./modules/mcp-server/index.js";
import type { ModelCatalogService } from "./modules/model/index.js";
import type { RunService } from "./modules/run/index.js";
import type { TemplateService } from "./modules/template/index.js";
import type { SecretService } from "./modules/secret/index.js";
import type { SemanticCacheService } from "./modules/semantic-cache/index.js";
import type { ThreadService } from "./modules/thread/index.js";
import type { TriggerService } from "./modules/trigger/index.js";
import type { WorkflowService } from "./modules/workflow/index.js";
import type { WorkflowVersionService } from "./modules/workflow-version/index.js";

/**
 * Every service, as the server builds the GraphQL context (create-app constructs them from
 * ServiceDeps). Modules never import this list: each module's resolvers name only the services they
 * use (`GraphQLContext<{ runs: RunService }>`), so no module depends on all the others.
 */
export interface Services {
  runs: RunService;
  apiKeys: ApiKeyService;
  workflows: WorkflowService;
  versions: WorkflowVersionService;
  models: ModelCatalogService;
  mcp: McpCatalogService;
  /** Workflows' MCP settings, and the tools the MCP server at /mcp offers. */
  workflowMcp: WorkflowMcpService;
  mcpTools: McpToolsService;
  knowledgeBases: KnowledgeBaseService;
  templates: TemplateService;
  threads: ThreadService;
  semanticCaches: SemanticCacheService;
  triggers: TriggerService;
  datasets: DatasetService;
  experiments: ExperimentService;
  secrets: SecretService;
  publishGates: PublishGateService;
  humanTasks: HumanTaskService;
}
