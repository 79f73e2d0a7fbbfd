import { WeftError } from "../../model/errors.js";
import { emptyNodeDetails, NodeFailure } from "../../registry/node-failure.js";
import { WEB_SEARCH_LIMITS, type WebSearchDepth, type WebSearchResult } from "../../providers/web-search.js";
import type { NodeExecutionContext, NodeExecutor } from "../../registry/node-type-definition.js";
import { configValue } from "../common/router-ports.js";
import { toScoredChunk, type ChunkValue } from "../common/chunk-value.js";
import { WEB_SEARCH_DEFAULTS } from "./web-search.config.js";
import { expressionText, inputText, toolUnavailable } from "../common/tool-inputs.js";

/**
 * Searches the web through the node's provider (SPEC-V2 §6: `offline` or `tavily`); output = the
 * pages as a chunk list with URLs. Provider failures go through the run's retry policy (429 and 5xx
 * after Retry-After, timeouts); a refused key fails at once.
 */
export const executeWebSearchNode: NodeExecutor = async (context) => {
  const { node } = context;
  const details = emptyNodeDetails(context.inputs);
  try {
    const providerId = node.provider ?? WEB_SEARCH_DEFAULTS.provider;
    const providers = context.tools.webSearch;
    if (!providers) throw toolUnavailable("WEB_SEARCH_UNAVAILABLE", "web search");
    const provider = providers.get(providerId);
    if (!provider) {
      const known = [...providers.keys()].join(", ") || "none";
      throw new WeftError("WEB_SEARCH_PROVIDER_UNAVAILABLE", `web search provider "${providerId}" is not configured here (configured: ${known})`, { audience: "operational" });
    }
    details.provider = provider.id;
    const query = searchQuery(context);
    if (query.trim() === "") return { description: "no query: nothing searched", output: [], details };
    const includeDomains = configValue<string[]>(node, "includeDomains", []);
    const excludeDomains = configValue<string[]>(node, "excludeDomains", []);
    const request = {
      query,
      maxResults: configValue<number>(node, "maxResults", WEB_SEARCH_DEFAULTS.maxResults),
      depth: configValue<WebSearchDepth>(node, "depth", WEB_SEARCH_DEFAULTS.depth),
      ...(includeDomains.length > 0 ? { includeDomains } : {}),
      ...(excludeDomains.length > 0 ? { excludeDomains } : {}),
    };
    const response = await context.withRetries(() => provider.search(request, context.signal));
    const output = response.results.map((result) => webChunk(result, response.provider));
    details.context = output.map(toScoredChunk);
    details.store = response.provider;
    return { description: `${output.length} pages from ${response.provider}`, output, details };
  } catch (error) {
    throw NodeFailure.wrap(error, details);
  }
};

function searchQuery(context: NodeExecutionContext): string {
  const query = (expressionText(context, "query") ?? inputText(context)).trim();
  if (query.length <= WEB_SEARCH_LIMITS.maxQueryLength) return query;
  context.emit({
    type: "WARNING",
    nodeId: context.node.id,
    code: "WEB_QUERY_TRUNCATED",
    message: `the query has ${query.length} characters; its first ${WEB_SEARCH_LIMITS.maxQueryLength} were searched`,
  });
  return query.slice(0, WEB_SEARCH_LIMITS.maxQueryLength);
}

function webChunk(result: WebSearchResult, provider: string): ChunkValue {
  return { chunkId: `web:${result.url}`, documentId: result.url, text: result.content, score: result.score, source: result.title, url: result.url, provider };
}
