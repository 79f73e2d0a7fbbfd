import { ProviderError, WEB_SEARCH_LIMITS, type WebSearchRequest } from "@weft/engine";

/**
 * Checks a request before any provider work, the same way for every provider: a bad request is a
 * permanent PROVIDER_BAD_REQUEST (never retried), so a node fails with a clear message.
 */
export function checkWebSearchRequest(provider: string, request: WebSearchRequest): void {
  const refuse = (message: string) => {
    throw new ProviderError("PROVIDER_BAD_REQUEST", `${provider} web search: ${message}`, { retryable: false });
  };
  if (request.query.trim() === "") refuse("the query is empty.");
  if (request.query.length > WEB_SEARCH_LIMITS.maxQueryLength) {
    refuse(`the query has ${request.query.length} characters; at most ${WEB_SEARCH_LIMITS.maxQueryLength} are allowed.`);
  }
  if (!Number.isInteger(request.maxResults) || request.maxResults < 1 || request.maxResults > WEB_SEARCH_LIMITS.maxResults) {
    refuse(`maxResults must be an integer from 1 to ${WEB_SEARCH_LIMITS.maxResults}, got ${request.maxResults}.`);
  }
  if (request.depth !== "basic" && request.depth !== "advanced") refuse(`depth must be "basic" or "advanced", got "${String(request.depth)}".`);
  for (const [name, domains] of [["includeDomains", request.includeDomains], ["excludeDomains", request.excludeDomains]] as const) {
    if ((domains?.length ?? 0) > WEB_SEARCH_LIMITS.maxDomains) refuse(`${name} has more than ${WEB_SEARCH_LIMITS.maxDomains} entries.`);
    if (domains?.some((domain) => domain.trim() === "")) refuse(`${name} contains an empty domain.`);
  }
}
