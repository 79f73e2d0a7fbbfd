import { z } from "zod";
import { celExpression, kind, nodeConfig } from "../../registry/node-config.schema.js";

export const RERANK_DEFAULTS = { maxCandidates: 10, topN: 5 } as const;
export const RERANK_MAX_CANDIDATES = 50;

export const rerankConfig = nodeConfig({
  maxCandidates: z
    .number()
    .int()
    .min(1)
    .max(RERANK_MAX_CANDIDATES)
    .optional()
    .meta({ description: "The first chunks of the list shown to the model.", default: RERANK_DEFAULTS.maxCandidates }),
  topN: z.number().int().min(1).max(RERANK_MAX_CANDIDATES).optional().meta({ description: "Chunks kept, in the model's order.", default: RERANK_DEFAULTS.topN }),
  query: celExpression
    .optional()
    .meta(kind("cel", "CEL for the query the chunks are ranked against; default: the inputs that are not chunks, else the run's input.")),
});

/** The reply asked of the model: the passages' indices, most relevant first. */
export const RERANK_REPLY_SCHEMA = {
  type: "object",
  properties: { order: { type: "array", items: { type: "integer", minimum: 0 } } },
  required: ["order"],
  additionalProperties: false,
};
