import { z } from "zod";
import { celExpression, kind, nodeConfig } from "../../registry/node-config.schema.js";
import { namespaceField } from "../common/cache-scope.js";

export const CACHE_LOOKUP_PORTS = ["hit", "miss"] as const;
export const CACHE_LOOKUP_DEFAULTS = { threshold: 0.9 } as const;

export const cacheLookupConfig = nodeConfig({
  threshold: z.number().min(0).max(1).optional().meta({ description: "Cosine similarity at or above which a cached answer is a hit.", default: CACHE_LOOKUP_DEFAULTS.threshold }),
  namespace: namespaceField,
  query: celExpression.optional().meta(kind("cel", "CEL for the question looked up; default: the input as text.")),
});
