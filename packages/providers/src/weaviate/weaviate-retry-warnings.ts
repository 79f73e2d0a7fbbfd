/**
 * weaviate-client retries a gRPC call on an unavailable server and reports every attempt with
 * `console.warn(error, …)`: a stack trace on stderr per attempt, several per search while Weaviate is
 * down, outside the service's JSON logs. The retry settings are one module-level object of the client
 * (`grpc/retry.js`, not exported by the package), spread into every call: its report is replaced once
 * by a silent one. Outages surface as VECTOR_STORE_UNAVAILABLE errors, which the caller logs.
 */

let quieted: Promise<void> | undefined;

export function quietRetryWarnings(): Promise<void> {
  quieted ??= (async () => {
    const entry = import.meta.resolve("weaviate-client");
    const retry = (await import(new URL("./grpc/retry.js", entry).href)) as { retryOptions?: { onRetryableError?: unknown } };
    if (retry.retryOptions) retry.retryOptions.onRetryableError = () => undefined;
  })().catch(() => undefined);
  return quieted;
}
