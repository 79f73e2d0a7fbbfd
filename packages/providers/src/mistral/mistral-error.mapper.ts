import { ProviderError, WeftError } from "@weft/engine";
import {
  ConnectionError,
  MistralError,
  RequestAbortedError,
  RequestTimeoutError,
} from "@mistralai/mistralai/models/errors";
import { abortError, describeCause, statusError } from "../chat/status-error.js";

/**
 * Maps whatever the Mistral SDK throws to a ProviderError with a stable code, a message a user can act
 * on, and whether the engine's retry loop should try again (429, 5xx, timeouts, connection failures).
 * The SDK's own retries are switched off so the two loops never multiply.
 */

function validationDetail(detail: unknown): string | undefined {
  if (!Array.isArray(detail)) return typeof detail === "string" ? detail : undefined;
  return detail
    .map((item: { loc?: unknown[]; msg?: string }) => `${(item.loc ?? []).join(".")}: ${item.msg ?? "invalid"}`)
    .join("; ");
}

/** The human part of Mistral's error body: `{message}`, `{message: {detail}}` or `{detail}`. */
export function mistralErrorMessage(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { message?: unknown; detail?: unknown };
    if (typeof parsed.message === "string") return parsed.message;
    if (typeof parsed.message === "object" && parsed.message !== null) {
      return validationDetail((parsed.message as { detail?: unknown }).detail) ?? JSON.stringify(parsed.message);
    }
    return validationDetail(parsed.detail);
  } catch {
    return body.trim() === "" ? undefined : body.slice(0, 200);
  }
}

function fromHttpStatus(error: MistralError, operation: string): ProviderError {
  return statusError({
    vendor: "Mistral",
    status: error.statusCode,
    said: mistralErrorMessage(error.body),
    retryAfter: error.headers.get("retry-after"),
    operation,
    keySetting: "MISTRAL_API_KEY",
    cause: error,
  });
}

export interface MistralCallContext {
  operation: string;
  /** The caller's signal: when it fired, the error is a cancellation, not a provider failure. */
  callerSignal: AbortSignal;
  timeoutSignal: AbortSignal;
  timeoutMs: number;
  serverURL: string;
}

/** Throws nothing itself: returns the error to throw (an AbortError when the caller cancelled). */
export function mapMistralError(error: unknown, context: MistralCallContext): Error {
  if (error instanceof WeftError) return error;
  if (context.callerSignal.aborted) return abortError(context.callerSignal);
  if (context.timeoutSignal.aborted || error instanceof RequestTimeoutError) {
    return new ProviderError("PROVIDER_TIMEOUT", `Mistral did not answer the ${context.operation} request within ${context.timeoutMs} ms.`, { cause: error, retryable: true });
  }
  if (error instanceof MistralError) return fromHttpStatus(error, context.operation);
  if (error instanceof ConnectionError) {
    return new ProviderError("PROVIDER_UNAVAILABLE", `Cannot reach Mistral at ${context.serverURL} (${describeCause(error)}).`, { cause: error, retryable: true });
  }
  if (error instanceof RequestAbortedError) {
    return new ProviderError("PROVIDER_UNAVAILABLE", `The connection to Mistral was closed during ${context.operation}.`, { cause: error, retryable: true });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError("PROVIDER_ERROR", `Unexpected error from Mistral during ${context.operation}: ${message}`, { cause: error, retryable: false });
}
