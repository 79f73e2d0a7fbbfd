import { z } from "zod";
import { WORKFLOW_DOCUMENT_LIMITS as LIMITS } from "../../model/workflow-document.limits.js";
import { findJsonLimitProblem } from "../../document/json-limits.check.js";
import { kind, nodeConfig, retrievalConfigFields } from "../../registry/node-config.schema.js";
import { schemaProblem } from "../../schema/json-schema.check.js";

/** A JSON Schema as a config value: plain JSON within the schema limits, usable by the validator. */
export const jsonSchemaField = z.unknown().superRefine((value, context) => {
  const limits = { maxDepth: LIMITS.maxSchemaDepth, maxEntries: LIMITS.maxSchemaEntries, maxStringLength: LIMITS.maxParamsStringLength };
  const problem = findJsonLimitProblem(value, limits);
  if (problem) {
    const params = problem.kind === "limit" ? { limit: true } : {};
    context.addIssue({ code: "custom", message: problem.message, path: problem.path as (string | number)[], params });
    return;
  }
  const unusable = schemaProblem(value);
  if (unusable) context.addIssue({ code: "custom", message: unusable });
});

export const llmConfig = nodeConfig({
  schema: jsonSchemaField
    .optional()
    .meta(kind("jsonSchema", "JSON Schema of the output: the reply is parsed as JSON, validated, and repaired once with the error.")),
  ...retrievalConfigFields,
  cache: z
    .strictObject({
      threshold: z.number().min(0).max(1).meta({ description: "Similarity at or above which a cached answer is reused." }),
      ttlSeconds: z.number().int().min(1).optional().meta({ description: "How long an answer stays cached." }),
    })
    .optional()
    .meta({ description: "Per-node semantic cache (needs a cache service; see SPEC-V2 §6)." }),
});
