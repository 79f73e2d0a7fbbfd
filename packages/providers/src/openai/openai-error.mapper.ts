import { ProviderError, WeftError } from "@weft/engine";
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { abortError, describeCause, statusError } from "../chat/status-error.js";

export interface OpenAiCallContext {
  operation: string;
  /** The caller's signal: when it fired, the error is a cancellation, not a provider failure. */
  callerSignal: AbortSignal;
  timeoutSignal: AbortSignal;
  timeoutMs: number;
  baseURL: string;
  label: string;
  keySetting: string;
}

/**
 * Maps whatever the `openai` SDK throws to a ProviderError with a stable code, a message naming the
 * endpoint and what to check, and whether the engine's retry loop should try again; the caller's
 * cancellation stays an AbortError. The same table as Mistral's (chat/status-error.ts).
 */
export function mapOpenAiError(error: unknown, context: OpenAiCallContext): Error {
  if (error instanceof WeftError) return error;
  if (context.callerSignal.aborted) return abortError(context.callerSignal);
  if (context.timeoutSignal.aborted || error instanceof APIConnectionTimeoutError) {
    return new ProviderError("PROVIDER_TIMEOUT", `${context.label} did not answer the ${context.operation} request within ${context.timeoutMs} ms.`, { cause: error, retryable: true });
  }
  if (error instanceof APIUserAbortError) {
    return new ProviderError("PROVIDER_UNAVAILABLE", `The connection to ${context.label} was closed during ${context.operation}.`, { cause: error, retryable: true });
  }
  if (error instanceof APIConnectionError) {
    return new ProviderError("PROVIDER_UNAVAILABLE", `Cannot reach ${context.label} at ${context.baseURL} (${describeCause(error)}).`, { cause: error, retryable: true });
  }
  if (error instanceof APIError && typeof error.status === "number") {
    return statusError({
      vendor: context.label,
      status: error.status,
      said: openAiErrorMessage(error.error),
      retryAfter: error.headers?.get("retry-after") ?? null,
      operation: context.operation,
      keySetting: context.keySetting,
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  // The SDK's own complaints about what it read (a stream chunk that is not JSON) land here too.
  return new ProviderError("PROVIDER_ERROR", `Unexpected error from ${context.label} during ${context.operation}: ${message}`, { cause: error, retryable: false });
}

/** The human part of an error body: OpenAI's `{error: {message}}` (the SDK hands us the inner object), or a bare `{message}`/`{detail}`/`error` string as compatible servers send. */
export function openAiErrorMessage(body: unknown): string | undefined {
  if (typeof body === "string") return body.trim() === "" ? undefined : body.slice(0, 200);
  if (typeof body !== "object" || body === null) return undefined;
  const record = body as { message?: unknown; detail?: unknown; error?: unknown };
  if (typeof record.message === "string") return record.message;
  if (typeof record.error === "string") return record.error;
  if (typeof record.error === "object" && record.error !== null) return openAiErrorMessage(record.error);
  if (typeof record.detail === "string") return record.detail;
  return undefined;
}
