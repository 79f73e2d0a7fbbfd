import type { ErrorAudience } from "@weft/engine";
import { GraphQLError } from "graphql";

/**
 * Failures that are not user errors returned as data: authentication (UNAUTHENTICATED, FORBIDDEN),
 * limits, NOT_FOUND in queries, operational failures. They reach clients as GraphQL errors with
 * `extensions.code`. Anything that is not an AppError (or a GraphQL validation error) is masked as
 * INTERNAL_SERVER_ERROR by the error formatter.
 */
export class AppError extends GraphQLError {
  readonly code: string;
  readonly audience: ErrorAudience;

  constructor(
    code: string,
    message: string,
    options: { extensions?: Record<string, unknown>; audience?: ErrorAudience; cause?: unknown } = {},
  ) {
    super(message, { extensions: { ...options.extensions, code }, originalError: toError(options.cause) });
    this.name = "AppError";
    this.code = code;
    this.audience = options.audience ?? "user";
  }
}

function toError(cause: unknown): Error | undefined {
  return cause instanceof Error ? cause : undefined;
}
