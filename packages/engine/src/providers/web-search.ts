/**
 * Web search for `web_search` nodes. Adapters: the offline provider (a fixture corpus shipped with
 * Weft, scored locally) and Tavily's HTTP search API. Failures are ProviderErrors (timeouts, 429 and
 * 5xx retryable with `retryAfterMs`; a refused key permanent), so callers retry them with the engine's
 * retry policy, as for model calls.
 */

export type WebSearchDepth = "basic" | "advanced";

export const WEB_SEARCH_LIMITS = {
  /** Results per search (Tavily's own ceiling). */
  maxResults: 20,
  /** Characters in a query (Tavily refuses longer ones). */
  maxQueryLength: 400,
  /** Entries in includeDomains or excludeDomains. */
  maxDomains: 50,
} as const;

export interface WebSearchRequest {
  query: string;
  /** 1 to WEB_SEARCH_LIMITS.maxResults. */
  maxResults: number;
  /** `basic`: one snippet per page; `advanced`: the most relevant passages of each page (slower, costlier on Tavily). */
  depth: WebSearchDepth;
  /** Only pages on these domains (a domain also covers its subdomains). */
  includeDomains?: readonly string[];
  /** Never pages on these domains (or their subdomains). */
  excludeDomains?: readonly string[];
}

export interface WebSearchResult {
  title: string;
  url: string;
  /** The text the page contributes: a snippet (basic) or its most relevant passages (advanced). */
  content: string;
  /** Relevance in [0, 1] as the provider reports it; comparable within one response only. */
  score: number;
}

export interface WebSearchResponse {
  /** Which provider answered, recorded on the node run. */
  provider: string;
  results: WebSearchResult[];
}

export interface WebSearchProvider {
  /** The `provider` value nodes name ("offline", "tavily"). */
  readonly id: string;
  readonly label: string;
  search(request: WebSearchRequest, signal: AbortSignal): Promise<WebSearchResponse>;
}

/** Providers by id, as the API configures them. */
export type WebSearchProviders = ReadonlyMap<string, WebSearchProvider>;

/** Whether `hostname` is `domain` or one of its subdomains (case-insensitive; a leading "www." or "." on the domain is ignored). */
export function hostMatchesDomain(hostname: string, domain: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  const wanted = domain.trim().toLowerCase().replace(/^\*?\./, "").replace(/^www\./, "").replace(/\/.*$/, "");
  if (wanted === "") return false;
  return host === wanted || host.endsWith(`.${wanted}`);
}

/** Applies includeDomains / excludeDomains to a page's host name the way every provider does. */
export function hostAllowedByDomains(hostname: string, request: Pick<WebSearchRequest, "includeDomains" | "excludeDomains">): boolean {
  const include = request.includeDomains ?? [];
  if (include.length > 0 && !include.some((domain) => hostMatchesDomain(hostname, domain))) return false;
  return !(request.excludeDomains ?? []).some((domain) => hostMatchesDomain(hostname, domain));
}
