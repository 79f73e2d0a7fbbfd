import { schemaMismatch } from "../../schema/json-schema.check.js";
import { parseOutputJson } from "../output-reading.js";
import type { JsonSchemaScorerSpec } from "../scorer-spec.js";
import type { Scorer } from "./scorer.js";

/** 1 when the output is JSON that matches the schema (the engine's validator, the llm node's), else 0 with what does not match. */
export const jsonSchemaScorer: Scorer<JsonSchemaScorerSpec> = (spec, { output }, context) => {
  const parsed = parseOutputJson(output, context.maxValueDepth);
  if (!parsed.ok) return { score: 0, reason: parsed.reason };
  const mismatch = schemaMismatch(spec.schema, parsed.value);
  return { score: mismatch === null ? 1 : 0, reason: mismatch ?? "" };
};
