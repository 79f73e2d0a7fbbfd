import { z } from "zod";
import { SEMANTIC_CACHE_LIMITS } from "../../providers/semantic-cache.js";
import { celExpression, kind, nodeConfig } from "../../registry/node-config.schema.js";
import { namespaceField } from "../common/cache-scope.js";

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
