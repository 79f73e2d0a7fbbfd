import { ProviderError } from "@weft/engine";
import { parseRetryAfter } from "../http/retry-after.js";

/** An HTTP error answer from a chat or embeddings API, in the parts every vendor's SDK exposes. */
export interface StatusFailure {
  /** Who answered: "Mistral", "OpenAI", or a named provider's label. */
  vendor: string;
  status: number;
  /** The vendor's own words about the failure, when it gave any. */
  said: string | undefined;
  retryAfter: string | null;
  operation: string;
  /** The setting to check when the key is refused ("MISTRAL_API_KEY"). */
  keySetting: string;
  cause: unknown;
}

/**
 * The same HTTP answer means the same thing from every chat API: 401/403 a refused key (permanent),
 * 429 a rate limit and 5xx an outage (retryable, waiting what `Retry-After` asks), 408 a timeout, any
 * other 4xx a request the vendor will never take.
 */
export function statusError(failure: StatusFailure): ProviderError {
  const { vendor, status, operation } = failure;
  const suffix = failure.said ? `: ${failure.said}` : "";
  const base = { cause: failure.cause, status };
  const retryAfterMs = parseRetryAfter(failure.retryAfter);
  const wait = retryAfterMs === undefined ? {} : { retryAfterMs };
  if (status === 401 || status === 403) {
    return new ProviderError("PROVIDER_AUTH_FAILED", `${vendor} refused the API key (HTTP ${status}${suffix}). Check ${failure.keySetting}.`, { ...base, retryable: false });
  }
  if (status === 429) {
    const asked = retryAfterMs === undefined ? "" : ` (asked to wait ${Math.ceil(retryAfterMs / 1000)} s)`;
    return new ProviderError("PROVIDER_RATE_LIMITED", `${vendor} rate limit reached during ${operation}${asked}${suffix}.`, { ...base, retryable: true, ...wait });
  }
  if (status === 408) {
    return new ProviderError("PROVIDER_TIMEOUT", `${vendor} timed out during ${operation} (HTTP 408).`, { ...base, retryable: true });
  }
  if (status >= 500) {
    return new ProviderError("PROVIDER_UNAVAILABLE", `${vendor} is unavailable (HTTP ${status}) during ${operation}${suffix}.`, { ...base, retryable: true, ...wait });
  }
  return new ProviderError("PROVIDER_BAD_REQUEST", `${vendor} rejected the ${operation} request (HTTP ${status})${suffix}.`, { ...base, retryable: false });
}

/** The caller's cancellation, as an AbortError (never a provider failure). */
export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === "AbortError") return reason;
  return new DOMException("The operation was aborted.", "AbortError");
}

/** A connection failure's most telling part: the system code (ECONNREFUSED) when there is one. */
export function describeCause(error: Error): string {
  const cause = error.cause;
  if (cause instanceof Error) {
    const code = (cause.cause as { code?: unknown } | undefined)?.code ?? (cause as { code?: unknown }).code;
    return typeof code === "string" ? code : cause.message;
  }
  return error.message;
}
