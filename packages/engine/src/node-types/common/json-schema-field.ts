import { z } from "zod";
import { findJsonLimitProblem } from "../../document/json-limits.check.js";
import { WORKFLOW_DOCUMENT_LIMITS as LIMITS } from "../../model/workflow-document.limits.js";
import { schemaProblem } from "../../schema/json-schema.check.js";

/** A JSON Schema as a config value, checked for size only: plain JSON within the schema limits. */
export const boundedJsonSchema = z.unknown().superRefine((value, context) => {
  const limits = { maxDepth: LIMITS.maxSchemaDepth, maxEntries: LIMITS.maxSchemaEntries, maxStringLength: LIMITS.maxParamsStringLength };
  const problem = findJsonLimitProblem(value, limits);
  if (!problem) return;
  const params = problem.kind === "limit" ? { limit: true } : {};
  context.addIssue({ code: "custom", message: problem.message, path: problem.path as (string | number)[], params });
});

/** A JSON Schema as a config value: within the schema limits and usable by the validator. */
export const jsonSchemaField = boundedJsonSchema.superRefine((value, context) => {
  const unusable = schemaProblem(value);
  if (unusable) context.addIssue({ code: "custom", message: unusable });
});
