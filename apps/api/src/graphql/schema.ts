import type { GraphQLSchema } from "graphql";
import { buildSchema } from "type-graphql";
import type { ClassType, NonEmptyArray, PubSub } from "type-graphql";
import { authChecker } from "../auth/auth-checker.js";
import { chargeResponseBudget } from "./limits/response-budget.js";
import { ApiKeyResolver } from "../modules/api-key/api-key.resolver.js";
import { ServerInfoResolver } from "../modules/common/server-info.resolver.js";
import { RunResolver } from "../modules/run/run.resolver.js";
import { RunSubscriptionResolver } from "../modules/run/run-subscription.resolver.js";
import { WorkflowResolver } from "../modules/workflow/workflow.resolver.js";
import { WorkflowGraphResolver } from "../modules/workflow/workflow-graph.resolver.js";
import { WorkflowSubscriptionResolver } from "../modules/workflow/workflow-subscription.resolver.js";
import { WorkflowVersionResolver } from "../modules/workflow-version/workflow-version.resolver.js";
import { WorkflowVersionsFieldResolver } from "../modules/workflow-version/workflow-versions-field.resolver.js";
import { ModelResolver } from "../modules/model/model.resolver.js";
import { KnowledgeBaseResolver } from "../modules/knowledge-base/knowledge-base.resolver.js";
import { KnowledgeBaseDocumentResolver } from "../modules/knowledge-base/knowledge-base-document.resolver.js";
import { KnowledgeBaseSubscriptionResolver } from "../modules/knowledge-base/knowledge-base-subscription.resolver.js";

/**
 * Every resolver of the API. Feature modules append theirs here. Decorators always name their types
 * (esbuild emits no decorator metadata), and class-validator is off: inputs are checked by services.
 */
export const RESOLVERS: NonEmptyArray<ClassType> = [
  ServerInfoResolver,
  WorkflowResolver,
  WorkflowGraphResolver,
  WorkflowSubscriptionResolver,
  WorkflowVersionResolver,
  WorkflowVersionsFieldResolver,
  ModelResolver,
  KnowledgeBaseResolver,
  KnowledgeBaseDocumentResolver,
  KnowledgeBaseSubscriptionResolver,
  RunResolver,
  RunSubscriptionResolver,
  ApiKeyResolver,
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

export async function buildWeftSchema(): Promise<GraphQLSchema> {
  const schema = await buildSchema({
    resolvers: RESOLVERS,
    authChecker,
    authMode: "error",
    validate: false,
    pubSub: unusedPubSub,
  });
  chargeResponseBudget(schema);
  return schema;
}
