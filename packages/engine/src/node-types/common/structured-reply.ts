import { WeftError } from "../../model/errors.js";
import type { JsonValue } from "../../model/json-value.js";
import type { LlmProvider, LlmRequest } from "../../providers/llm-provider.js";
import type { NodeExecutionContext } from "../../registry/node-type-definition.js";
import { callModel } from "./model-call.js";
import type { PartialNodeDetails } from "../../registry/node-failure.js";
import { parseJsonReply } from "../../result-parser/json-reply.parser.js";
import { ResultParseError } from "../../result-parser/result-parse.error.js";
import { schemaMismatch } from "../../schema/json-schema.check.js";

/**
 * Asks the model for JSON matching `schema` (sent as `jsonSchema` so Mistral constrains its output),
 * then parses and validates the reply. When it does not parse or match and parse repair is on, the
 * model is asked once more with the original prompt, the problem and the schema (SPEC-V2 §3: one
 * repair). Fails with RESULT_PARSE_ERROR or SCHEMA_MISMATCH, keeping what `details` recorded.
 */
export async function callForJson(
  context: NodeExecutionContext,
  provider: LlmProvider,
  request: LlmRequest,
  schema: JsonValue,
  details: PartialNodeDetails,
): Promise<JsonValue> {
  const constrained: LlmRequest = { ...request, json: true, ...(isObject(schema) ? { jsonSchema: { name: "output", schema, strict: true } } : {}) };
  await callModel(context, provider, constrained, details);
  const first = readReply(details.rawReply ?? "", schema, context.limits.maxValueDepth);
  if (first.ok) return first.value;
  if (!context.settings.parseRepair) throw first.error;
  context.emit({ type: "WARNING", nodeId: context.node.id, code: "PARSE_REPAIR", message: `asking the model once more: ${first.reason}` });
  details.retries += 1;
  await callModel(context, provider, { ...constrained, prompt: schemaRepairPrompt(request.prompt, first.reason, schema) }, details);
  const second = readReply(details.rawReply ?? "", schema, context.limits.maxValueDepth);
  if (second.ok) return second.value;
  throw second.error;
}

type ReadOutcome = { ok: true; value: JsonValue } | { ok: false; reason: string; error: WeftError };

function readReply(reply: string, schema: JsonValue, maxDepth: number): ReadOutcome {
  let value: JsonValue;
  try {
    value = parseJsonReply(reply, maxDepth);
  } catch (error) {
    if (!(error instanceof ResultParseError)) throw error;
    return { ok: false, reason: error.reason, error };
  }
  const mismatch = schemaMismatch(schema, value);
  if (mismatch === null) return { ok: true, value };
  const error = new WeftError("SCHEMA_MISMATCH", `the reply does not match the node's schema: ${mismatch}`, {
    audience: "operational",
    details: { mismatch },
  });
  return { ok: false, reason: `it does not match the schema: ${mismatch}`, error };
}

export function schemaRepairPrompt(prompt: string, reason: string, schema: JsonValue): string {
  return `${prompt}\n\n---\nYour previous reply could not be used: ${reason}.\nReply with only JSON that matches this JSON Schema:\n${JSON.stringify(schema)}`;
}

function isObject(value: JsonValue): value is Record<string, JsonValue> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
