import { getVariableValues, GraphQLError, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from "graphql";
import type { Env } from "../../env.js";
import { MAX_ALIASES_PER_EXPENSIVE_FIELD } from "../../modules/common/field-cost.js";
import { expensiveFieldCounts } from "./alias-limit.js";
import { SELECTION_NESTING_SLACK, type DocumentNestingLimits } from "./document-nesting.js";
import { operationComplexity } from "./query-complexity.js";
import { operationDepth } from "./query-depth.js";

export interface OperationLimits {
  maxDepth: number;
  maxComplexity: number;
  /** Occurrences (aliases) of one field marked expensive. */
  maxAliases: number;
  /** Checked on the document's text before it is parsed (document-nesting.ts). */
  nesting: DocumentNestingLimits;
}

export type OperationLimitsEnv = Pick<Env, "WEFT_MAX_QUERY_DEPTH" | "WEFT_MAX_QUERY_COMPLEXITY" | "WEFT_MAX_VALUE_DEPTH">;

export function operationLimitsOf(env: OperationLimitsEnv): OperationLimits {
  return {
    maxDepth: env.WEFT_MAX_QUERY_DEPTH,
    maxComplexity: env.WEFT_MAX_QUERY_COMPLEXITY,
    maxAliases: MAX_ALIASES_PER_EXPENSIVE_FIELD,
    nesting: { maxValueDepth: env.WEFT_MAX_VALUE_DEPTH, maxSelectionNesting: env.WEFT_MAX_QUERY_DEPTH + SELECTION_NESTING_SLACK },
  };
}

export interface OperationToCheck {
  schema: GraphQLSchema;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  variables: Record<string, unknown> | undefined;
}

/**
 * Depth, alias and complexity checks shared by HTTP (an Apollo plugin) and WebSocket (graphql-ws onSubscribe).
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
  const crowded = expensiveFieldCounts(target.schema, target.document, target.operation).find(({ count }) => count > limits.maxAliases);
  if (crowded) {
    return [
      limitError("TOO_MANY_ALIASES", `${crowded.field} is asked for ${crowded.count} times; the limit is ${limits.maxAliases} per operation`, {
        field: crowded.field,
        count: crowded.count,
        maxAliases: limits.maxAliases,
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

function limitError(code: string, message: string, details: Record<string, number | string>): GraphQLError {
  return new GraphQLError(message, { extensions: { code, ...details, http: { status: 400 } } });
}
