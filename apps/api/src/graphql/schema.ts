import type { GraphQLSchema } from "graphql";
import { buildSchema } from "type-graphql";
import type { ClassType, NonEmptyArray, PubSub } from "type-graphql";
import { authChecker } from "../auth/auth-checker.js";
import { refuseUnstorableArguments } from "./argument-guard.js";
import { chargeResponseBudget } from "./limits/response-budget.js";
import { ApiKeyResolver } from "../modules/api-key/index.js";
import { DatasetResolver } from "../modules/dataset/index.js";
import { ExperimentResolver, ExperimentSubscriptionResolver, PublishGateResolver } from "../modules/experiment/index.js";
import { HumanTaskResolver } from "../modules/human-task/index.js";
import { ServerInfoResolver } from "../modules/common/server-info.resolver.js";
import { KnowledgeBaseDocumentResolver, KnowledgeBaseResolver, KnowledgeBaseSubscriptionResolver } from "../modules/knowledge-base/index.js";
import { McpResolver } from "../modules/mcp/index.js";
import { WorkflowMcpResolver } from "../modules/mcp-server/index.js";
import { ModelResolver } from "../modules/model/index.js";
import { RUN_EVENT_KINDS, RunResolver, RunSubscriptionResolver, ThreadRunsResolver, WorkflowRunsResolver } from "../modules/run/index.js";
import { TemplateResolver } from "../modules/template/index.js";
import { SecretResolver } from "../modules/secret/index.js";
import { SemanticCacheResolver } from "../modules/semantic-cache/index.js";
import { ThreadResolver } from "../modules/thread/index.js";
import { TriggerResolver } from "../modules/trigger/index.js";
import { WorkflowGraphResolver, WorkflowNodeResolver, WorkflowResolver, WorkflowSubscriptionResolver } from "../modules/workflow/index.js";
import { WorkflowDocumentsResolver, WorkflowVersionResolver, WorkflowVersionsFieldResolver } from "../modules/workflow-version/index.js";

/**
 * Every resolver of the API. Feature modules append theirs here. Decorators always name their types
 * (esbuild emits no decorator metadata), and class-validator is off: inputs are checked by services.
 */
export const RESOLVERS: NonEmptyArray<ClassType> = [
  ServerInfoResolver,
  WorkflowResolver,
  WorkflowGraphResolver,
  WorkflowNodeResolver,
  WorkflowSubscriptionResolver,
  WorkflowVersionResolver,
  WorkflowVersionsFieldResolver,
  WorkflowDocumentsResolver,
  ModelResolver,
  McpResolver,
  WorkflowMcpResolver,
  KnowledgeBaseResolver,
  KnowledgeBaseDocumentResolver,
  KnowledgeBaseSubscriptionResolver,
  RunResolver,
  RunSubscriptionResolver,
  WorkflowRunsResolver,
  ThreadResolver,
  ThreadRunsResolver,
  SemanticCacheResolver,
  TriggerResolver,
  HumanTaskResolver,
  ApiKeyResolver,
  SecretResolver,
  TemplateResolver,
  DatasetResolver,
  ExperimentResolver,
  ExperimentSubscriptionResolver,
  PublishGateResolver,
];

/**
 * Our subscriptions pass their own `subscribe` (the event bus, with replay), never type-graphql topics;
 * type-graphql still insists on a pubSub, so this one refuses to be used.
 */
const unusedPubSub: PubSub = {
  publish() {
    throw new Error("type-graphql topics are not used; publish on the EventBus (pubsub.ts)");
  },
  subscribe() {
    throw new Error("type-graphql topics are not used; give the subscription a `subscribe` function");
  },
};

export interface SchemaLimits {
  /** WEFT_MAX_VALUE_DEPTH: how deeply a JSON argument may nest (VALUE_TOO_DEEP beyond). */
  maxValueDepth: number;
}

/** The defaults of env.ts, for the emitted schema and tests that only read it. */
export const DEFAULT_SCHEMA_LIMITS: SchemaLimits = { maxValueDepth: 64 };

export async function buildWeftSchema(limits: SchemaLimits = DEFAULT_SCHEMA_LIMITS): Promise<GraphQLSchema> {
  const schema = await buildSchema({
    resolvers: RESOLVERS,
    // Types no resolver names: each run event kind (its fields come through the RunEvent interface).
    orphanedTypes: RUN_EVENT_KINDS,
    authChecker,
    authMode: "error",
    validate: false,
    pubSub: unusedPubSub,
  });
  chargeResponseBudget(schema);
  refuseUnstorableArguments(schema, limits.maxValueDepth);
  return schema;
}
