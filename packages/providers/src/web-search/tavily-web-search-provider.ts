import { ProviderError, type WebSearchProvider, type WebSearchRequest, type WebSearchResponse } from "@weft/engine";
import { z } from "zod";
import { tavilyHttpError, tavilyNetworkError } from "./tavily-error.mapper.js";
import { checkWebSearchRequest } from "./web-search-request.js";

export const TAVILY_DEFAULT_URL = "https://api.tavily.com";

export interface TavilyWebSearchOptions {
  apiKey: string;
  /** Another Tavily-compatible endpoint (a proxy, or a local test server). Default https://api.tavily.com. */
  serverURL?: string;
  /** Limit of one search request, answer included (default 30 s); slower is PROVIDER_TIMEOUT (retryable). */
  timeoutMs?: number;
}

const tavilyResponse = z.object({
  results: z.array(
    z.object({
      title: z.string().nullish(),
      url: z.string(),
      content: z.string().nullish(),
      score: z.number().nullish(),
    }),
  ),
});

/**
 * Tavily's search API (`POST /search`, `Authorization: Bearer tvly-…`). One attempt per call: failures
 * are ProviderErrors the caller retries with the engine's retry policy (429 and 5xx honouring
 * Retry-After, timeouts), so retries never multiply; a refused key (401) is permanent.
 */
export class TavilyWebSearchProvider implements WebSearchProvider {
  readonly id = "tavily";
  readonly label = "Tavily";
  private readonly serverURL: string;
  private readonly timeoutMs: number;

  constructor(private readonly options: TavilyWebSearchOptions) {
    this.serverURL = (options.serverURL ?? TAVILY_DEFAULT_URL).replace(/\/+$/, "");
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  async search(request: WebSearchRequest, signal: AbortSignal): Promise<WebSearchResponse> {
    checkWebSearchRequest(this.id, request);
    const timeoutSignal = AbortSignal.timeout(this.timeoutMs);
    const context = { callerSignal: signal, timeoutSignal, timeoutMs: this.timeoutMs, serverURL: this.serverURL };
    let status: number;
    let body: string;
    let retryAfter: string | null;
    try {
      const response = await fetch(`${this.serverURL}/search`, {
        method: "POST",
        headers: { authorization: `Bearer ${this.options.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify(requestBody(request)),
        signal: AbortSignal.any([signal, timeoutSignal]),
      });
      status = response.status;
      retryAfter = response.headers.get("retry-after");
      body = await response.text();
    } catch (error) {
      throw tavilyNetworkError(error, context);
    }
    if (status < 200 || status >= 300) throw tavilyHttpError(status, body, retryAfter);
    return { provider: this.id, results: parseResults(body).slice(0, request.maxResults) };
  }
}

function requestBody(request: WebSearchRequest): Record<string, unknown> {
  return {
    query: request.query,
    search_depth: request.depth,
    max_results: request.maxResults,
    topic: "general",
    include_answer: false,
    include_raw_content: false,
    include_images: false,
    ...(request.includeDomains?.length ? { include_domains: request.includeDomains } : {}),
    ...(request.excludeDomains?.length ? { exclude_domains: request.excludeDomains } : {}),
  };
}

function parseResults(body: string): WebSearchResponse["results"] {
  let parsed: ReturnType<typeof tavilyResponse.safeParse>;
  try {
    parsed = tavilyResponse.safeParse(JSON.parse(body));
  } catch {
    throw new ProviderError("PROVIDER_ERROR", `Tavily answered with something that is not JSON: ${body.slice(0, 120)}`, { retryable: false });
  }
  if (!parsed.success) {
    throw new ProviderError("PROVIDER_ERROR", `Tavily's answer has an unexpected shape: ${parsed.error.issues[0]?.message ?? "invalid"}`, { retryable: false });
  }
  return parsed.data.results.map((result) => ({
    title: result.title ?? result.url,
    url: result.url,
    content: result.content ?? "",
    score: Math.max(0, Math.min(1, result.score ?? 0)),
  }));
}
