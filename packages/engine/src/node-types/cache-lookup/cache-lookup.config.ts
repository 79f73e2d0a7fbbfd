import { z } from "zod";
import { namespaceProblem, SEMANTIC_CACHE_LIMITS } from "../../providers/semantic-cache.js";
import { celExpression, kind, nodeConfig } from "../../registry/node-config.schema.js";

export const CACHE_PORTS = ["hit", "miss"] as const;
export const CACHE_DEFAULTS = { threshold: 0.9 } as const;

export const namespaceField = z
  .string()
  .superRefine((namespace, context) => {
    const problem = namespaceProblem(namespace);
    if (problem) context.addIssue({ code: "custom", message: problem });
  })
  .optional()
  .meta({ description: "Cache shared under this name by every workflow and version that names it; default: this workflow version's own cache." });

export const cacheLookupConfig = nodeConfig({
  threshold: z.number().min(0).max(1).optional().meta({ description: "Cosine similarity at or above which a cached answer is a hit.", default: CACHE_DEFAULTS.threshold }),
  namespace: namespaceField,
  query: celExpression.optional().meta(kind("cel", "CEL for the question looked up; default: the input as text.")),
});

export const cacheStoreConfig = nodeConfig({
  ttlSeconds: z
    .number()
    .int()
    .min(1)
    .max(SEMANTIC_CACHE_LIMITS.maxTtlSeconds)
    .optional()
    .meta({ description: "Seconds the answer stays cached (at most a year); default: until the cache is cleared." }),
  namespace: namespaceField,
  query: celExpression.optional().meta(kind("cel", "CEL for the question the answer is stored under; default: the run's input.")),
});
