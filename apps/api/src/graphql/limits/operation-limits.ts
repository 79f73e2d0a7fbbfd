import { getVariableValues, GraphQLError, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from "graphql";
import { operationComplexity } from "./query-complexity.js";
import { operationDepth } from "./query-depth.js";

export interface OperationLimits {
  maxDepth: number;
  maxComplexity: number;
}

export interface OperationToCheck {
  schema: GraphQLSchema;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  variables: Record<string, unknown> | undefined;
}

/**
 * Depth and complexity checks shared by HTTP (an Apollo plugin) and WebSocket (graphql-ws onSubscribe).
 * Returns the errors to send; empty when the operation is within limits.
 */
export function checkOperationLimits(target: OperationToCheck, limits: OperationLimits): GraphQLError[] {
  const depth = operationDepth(target.document, target.operation);
  if (depth > limits.maxDepth) {
    return [
      limitError("QUERY_TOO_DEEP", `query depth ${depth} exceeds the limit of ${limits.maxDepth}`, {
        depth,
        maxDepth: limits.maxDepth,
      }),
    ];
  }
  // Bad variables are reported by execution (BAD_USER_INPUT), with nothing resolved; do not guess a cost.
  const coerced = getVariableValues(target.schema, target.operation.variableDefinitions ?? [], target.variables ?? {});
  if (coerced.errors) return [];
  let complexity: number;
  try {
    complexity = operationComplexity(target.schema, target.document, target.operation.name?.value, coerced.coerced);
  } catch (error) {
    // getComplexity refuses documents over its own node limit by throwing.
    return [limitError("QUERY_TOO_COMPLEX", `query cost could not be bounded: ${(error as Error).message}`, {})];
  }
  if (complexity > limits.maxComplexity) {
    return [
      limitError("QUERY_TOO_COMPLEX", `query cost ${complexity} exceeds the limit of ${limits.maxComplexity}`, {
        complexity,
        maxComplexity: limits.maxComplexity,
      }),
    ];
  }
  return [];
}

function limitError(code: string, message: string, details: Record<string, number>): GraphQLError {
  return new GraphQLError(message, { extensions: { code, ...details, http: { status: 400 } } });
}
