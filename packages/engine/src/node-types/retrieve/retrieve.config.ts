import { z } from "zod";
import { chunkFilterSchema } from "../../providers/chunk-filter.js";
import { celExpression, kind, knowledgeBaseField, nodeConfig } from "../../registry/node-config.schema.js";

export const RETRIEVE_DEFAULTS = { topK: 5 } as const;
/** Queries one retrieve invocation sends (the stores' own ceiling). */
export const RETRIEVE_MAX_QUERIES = 20;

export const retrieveConfig = nodeConfig({
  knowledgeBase: knowledgeBaseField,
  topK: z.number().int().min(1).max(100).optional().meta({ description: "Chunks returned (after merging the queries' hits).", default: RETRIEVE_DEFAULTS.topK }),
  queries: celExpression
    .optional()
    .meta(kind("celList", `CEL list of query texts (multi-query, at most ${RETRIEVE_MAX_QUERIES}; hits merged by chunk id, best score kept); default: the input (a list of texts is several queries).`)),
  filter: chunkFilterSchema.optional().meta({ description: "Metadata filter: documentId, source (title), page and chunkIndex (value, list or {gte, lte}), metadata.<key>." }),
  minScore: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .meta({ description: "Chunks scoring below this are dropped, so a question the knowledge base does not cover finds few or none; default: keep all." }),
  alpha: z.number().min(0).max(1).optional().meta({ description: "Hybrid search weight on stores with keyword search (Weaviate): 1 = vectors only, 0 = keywords only; default: the server's." }),
});
