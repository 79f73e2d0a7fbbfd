/**
 * Errors raised by the engine carry a stable code. `audience` says who should read the message:
 * "user" errors are caused by input and shown as they are; "operational" errors come from the
 * environment (a provider down) and are shown with their code; "internal" errors are bugs.
 */
export type ErrorAudience = "user" | "operational" | "internal";

export class WeftError extends Error {
  readonly code: string;
  readonly audience: ErrorAudience;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: string,
    message: string,
    options: { audience?: ErrorAudience; cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "WeftError";
    this.code = code;
    this.audience = options.audience ?? "user";
    this.details = options.details;
  }
}

/** Provider failures say whether trying again can help, and how long the provider asked us to wait. */
export class ProviderError extends WeftError {
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;

  constructor(
    code: ProviderErrorCode,
    message: string,
    options: { retryable: boolean; retryAfterMs?: number; cause?: unknown; status?: number },
  ) {
    super(code, message, {
      audience: "operational",
      cause: options.cause,
      details: options.status === undefined ? undefined : { status: options.status },
    });
    this.name = "ProviderError";
    this.retryable = options.retryable;
    this.retryAfterMs = options.retryAfterMs;
  }
}

export type ProviderErrorCode =
  | "PROVIDER_TIMEOUT"
  | "PROVIDER_RATE_LIMITED"
  | "PROVIDER_UNAVAILABLE"
  | "PROVIDER_AUTH_FAILED"
  | "PROVIDER_BAD_REQUEST"
  | "PROVIDER_ERROR";

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");
}
