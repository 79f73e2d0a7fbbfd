import { ProviderError, WeftError } from "@weft/engine";
import { parseRetryAfter } from "../http/retry-after.js";

/**
 * Maps Tavily's HTTP answers and network failures to ProviderErrors: a refused key or an exhausted plan
 * is permanent; 429, 5xx, 408 and timeouts are retryable, with Tavily's Retry-After when it sent one.
 * Tavily's error bodies look like `{"detail": {"error": "…"}}`.
 */

export function tavilyErrorMessage(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { detail?: unknown };
    const detail = parsed.detail;
    if (typeof detail === "string") return detail;
    if (typeof detail === "object" && detail !== null && typeof (detail as { error?: unknown }).error === "string") return (detail as { error: string }).error;
    return undefined;
  } catch {
    return body.trim() === "" ? undefined : body.trim().slice(0, 200);
  }
}

export function tavilyHttpError(status: number, body: string, retryAfterHeader: string | null): ProviderError {
  const said = tavilyErrorMessage(body);
  const suffix = said ? `: ${said}` : "";
  const base = { status };
  if (status === 401 || status === 403) {
    return new ProviderError("PROVIDER_AUTH_FAILED", `Tavily refused the API key (HTTP ${status}${suffix}). Check TAVILY_API_KEY.`, { ...base, retryable: false });
  }
  if (status === 432 || status === 433) {
    return new ProviderError("PROVIDER_RATE_LIMITED", `Tavily: this search exceeds the account's usage limit (HTTP ${status}${suffix}).`, { ...base, retryable: false });
  }
  const retryAfterMs = parseRetryAfter(retryAfterHeader);
  const wait = retryAfterMs === undefined ? {} : { retryAfterMs };
  if (status === 429) {
    const asked = retryAfterMs === undefined ? "" : ` (asked to wait ${Math.ceil(retryAfterMs / 1000)} s)`;
    return new ProviderError("PROVIDER_RATE_LIMITED", `Tavily rate limit reached${asked}${suffix}.`, { ...base, retryable: true, ...wait });
  }
  if (status === 408) return new ProviderError("PROVIDER_TIMEOUT", `Tavily timed out (HTTP 408)${suffix}.`, { ...base, retryable: true, ...wait });
  if (status >= 500) return new ProviderError("PROVIDER_UNAVAILABLE", `Tavily is unavailable (HTTP ${status})${suffix}.`, { ...base, retryable: true, ...wait });
  if (status === 400 || status === 404 || status === 422) {
    return new ProviderError("PROVIDER_BAD_REQUEST", `Tavily rejected the search request (HTTP ${status})${suffix}.`, { ...base, retryable: false });
  }
  return new ProviderError("PROVIDER_ERROR", `Unexpected answer from Tavily (HTTP ${status})${suffix}.`, { ...base, retryable: false });
}

export interface TavilyCallContext {
  callerSignal: AbortSignal;
  timeoutSignal: AbortSignal;
  timeoutMs: number;
  serverURL: string;
}

/** A failure without an HTTP answer: cancellation stays an AbortError; a timeout or a lost connection is retryable. */
export function tavilyNetworkError(error: unknown, context: TavilyCallContext): Error {
  if (error instanceof WeftError) return error;
  if (context.callerSignal.aborted) {
    const reason: unknown = context.callerSignal.reason;
    return reason instanceof Error && reason.name === "AbortError" ? reason : new DOMException("The operation was aborted.", "AbortError");
  }
  if (context.timeoutSignal.aborted) {
    return new ProviderError("PROVIDER_TIMEOUT", `Tavily did not answer within ${context.timeoutMs} ms.`, { cause: error, retryable: true });
  }
  return new ProviderError("PROVIDER_UNAVAILABLE", `Cannot reach Tavily at ${context.serverURL} (${describeCause(error)}).`, { cause: error, retryable: true });
}

function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  if (typeof cause?.code === "string") return cause.code;
  return typeof cause?.message === "string" ? cause.message : error.message;
}
