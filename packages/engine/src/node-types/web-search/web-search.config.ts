import { z } from "zod";
import { WEB_SEARCH_LIMITS } from "../../providers/web-search.js";
import { celExpression, kind, nodeConfig } from "../../registry/node-config.schema.js";

export const WEB_SEARCH_DEFAULTS = { provider: "offline", maxResults: 5, depth: "basic" } as const;

const domain = z.string().min(1).max(253);
const domains = z.array(domain).max(WEB_SEARCH_LIMITS.maxDomains);

export const webSearchAttributes = z.strictObject({
  provider: z.string().min(1).max(100).optional(),
});

export const webSearchConfig = nodeConfig({
  maxResults: z.number().int().min(1).max(WEB_SEARCH_LIMITS.maxResults).optional().meta({ description: "Pages returned.", default: WEB_SEARCH_DEFAULTS.maxResults }),
  depth: z
    .enum(["basic", "advanced"])
    .optional()
    .meta({ description: "basic: one snippet per page; advanced: its most relevant passages (slower; two credits on Tavily).", default: WEB_SEARCH_DEFAULTS.depth }),
  includeDomains: domains.optional().meta({ description: "Only pages on these domains (and their subdomains)." }),
  excludeDomains: domains.optional().meta({ description: "Never pages on these domains (and their subdomains)." }),
  query: celExpression.optional().meta(kind("cel", "CEL for the search query; default: the input as text.")),
});
