import { unwrapResolverError } from "@apollo/server/errors";
import { WeftError } from "@weft/engine";
import { GraphQLError, type GraphQLFormattedError } from "graphql";
import { AppError } from "../errors/app-error.js";

/**
 * What clients may see. AppErrors, engine errors meant for users or operators, and errors GraphQL itself
 * raises about the request (parse, validation, variables, limits) keep their message and code. Anything
 * else is a bug or an unexpected failure: clients get INTERNAL_SERVER_ERROR and the request id, the
 * log gets the stack.
 */
export const INTERNAL_MESSAGE = "Internal server error; quote the requestId when reporting it";

export function isExposed(error: unknown): boolean {
  const original = unwrapResolverError(error);
  if (original instanceof AppError) return true;
  if (original instanceof WeftError) return original.audience !== "internal";
  // A GraphQLError with no cause was raised about the request itself, not by failing code.
  return original instanceof GraphQLError && !(original.originalError && !(original.originalError instanceof GraphQLError));
}

export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  if (!isExposed(error)) {
    return { message: INTERNAL_MESSAGE, extensions: { code: "INTERNAL_SERVER_ERROR" } };
  }
  const original = unwrapResolverError(error);
  if (original instanceof WeftError) {
    return { ...formatted, extensions: { ...formatted.extensions, code: original.code } };
  }
  const { http: _http, ...extensions } = (formatted.extensions ?? {}) as Record<string, unknown>;
  // Apollo's own refusals of a request without a code (a persisted query whose hash does not match its
  // text, or of an unknown version) would default to INTERNAL_SERVER_ERROR: they are the client's.
  if (isCodelessBadRequest(original)) return { ...formatted, extensions: { ...extensions, code: "BAD_REQUEST" } };
  return { ...formatted, extensions };
}

function isCodelessBadRequest(original: unknown): boolean {
  if (!(original instanceof GraphQLError) || original.extensions["code"] !== undefined) return false;
  return (original.extensions["http"] as { status?: number } | undefined)?.status === 400;
}

/** The underlying error, for logging with its stack. */
export function originalError(error: unknown): unknown {
  const original = unwrapResolverError(error);
  return original instanceof GraphQLError && original.originalError ? original.originalError : original;
}
