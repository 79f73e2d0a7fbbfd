import type { GraphQLSchema } from "graphql";
import { buildSchema } from "type-graphql";
import type { ClassType, NonEmptyArray } from "type-graphql";
import { authChecker } from "../auth/auth-checker.js";
import { ServerInfoResolver } from "../modules/common/server-info.resolver.js";
import { WorkflowResolver } from "../modules/workflow/workflow.resolver.js";
import { WorkflowGraphResolver } from "../modules/workflow/workflow-graph.resolver.js";
import { ModelResolver } from "../modules/model/model.resolver.js";

/**
 * Every resolver of the API. Feature modules append theirs here. Decorators always name their types
 * (esbuild emits no decorator metadata), and class-validator is off: inputs are checked by services.
 */
export const RESOLVERS: NonEmptyArray<ClassType> = [ServerInfoResolver, WorkflowResolver, WorkflowGraphResolver, ModelResolver];

export interface BuildOptions {
  /** Writes the SDL to this path (apps/api/schema.graphql via `pnpm --filter @weft/api schema:emit`). */
  emitSchemaFile?: string;
}

export function buildWeftSchema(options: BuildOptions = {}): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers: RESOLVERS,
    authChecker,
    authMode: "error",
    validate: false,
    ...(options.emitSchemaFile ? { emitSchemaFile: { path: options.emitSchemaFile, sortedSchema: true } } : {}),
  });
}
