import type { ApolloServerPlugin } from "@apollo/server";
import type { GraphQLError } from "graphql";
import type { GraphQLContext } from "./context.js";
import { isExposed, originalError } from "./error-format.js";
import { introspectionRefusal } from "./introspection-guard.js";
import { checkOperationLimits, operationLimitsOf, type OperationLimitsEnv } from "./limits/operation-limits.js";

/**
 * Refuses anonymous introspection (introspection-guard.ts) and operations over the depth, alias or
 * complexity limit before anything executes, and replaces
 * a response that outgrew its budget (see limits/response-budget.ts) by the one error saying so.
 */
export function operationLimitsPlugin(env: OperationLimitsEnv): ApolloServerPlugin<GraphQLContext> {
  const limits = operationLimitsOf(env);
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, request, contextValue }) {
          if (!operation) return;
          const refused = introspectionRefusal(document, operation, contextValue.auth);
          if (refused) throw refused;
          const errors = checkOperationLimits({ schema, document, operation, variables: request.variables }, limits);
          if (errors.length > 0) throw errors[0]!;
        },
        async willSendResponse({ response, contextValue }) {
          const budget = contextValue.responseBudget;
          if (!budget?.exceeded || response.body.kind !== "single") return;
          response.body.singleResult = { errors: [budget.formattedError(contextValue.requestId)] };
          response.http.status = 400;
        },
      };
    },
  };
}

/**
 * Logs unexpected errors with their stack and the request id, and stamps every error sent to the client
 * with that id (the correlation id a user quotes in a report).
 */
export function errorReportingPlugin(): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors({ errors, contextValue, operationName }) {
          for (const error of errors as readonly GraphQLError[]) {
            if (isExposed(error)) continue;
            contextValue.logger.error(
              { err: originalError(error), path: error.path, operationName },
              "unexpected error in a GraphQL operation",
            );
          }
        },
        async willSendResponse({ response, contextValue }) {
          if (response.body.kind !== "single") return;
          const errors = response.body.singleResult.errors;
          if (!errors) return;
          response.body.singleResult.errors = errors.map((error) => ({
            ...error,
            extensions: { ...error.extensions, requestId: contextValue.requestId },
          }));
        },
      };
    },
  };
}
