import type { JsonValue } from "../../model/json-value.js";
import type { LlmProvider, LlmRequest } from "../../providers/llm-provider.js";
import type { NodeExecutionContext } from "../../registry/node-type-definition.js";
import { callModel } from "./model-call.js";
import type { PartialNodeDetails } from "../../registry/node-failure.js";
import { askForJson } from "../../result-parser/json-reply-repair.js";

/**
 * Asks the model for JSON matching `schema` (sent as `jsonSchema` so Mistral constrains its output),
 * then parses and validates the reply, with one repair when parse repair is on (askForJson). Fails
 * with RESULT_PARSE_ERROR or SCHEMA_MISMATCH, keeping what `details` recorded.
 */
export async function callForJson(
  context: NodeExecutionContext,
  provider: LlmProvider,
  request: LlmRequest,
  schema: JsonValue,
  details: PartialNodeDetails,
): Promise<JsonValue> {
  const constrained: LlmRequest = { ...request, json: true, ...(isObject(schema) ? { jsonSchema: { name: "output", schema, strict: true } } : {}) };
  const ask = async (prompt: string) => {
    await callModel(context, provider, { ...constrained, prompt }, details);
    return details.rawReply ?? "";
  };
  return askForJson(ask, request.prompt, schema, {
    maxDepth: context.limits.maxValueDepth,
    repair: context.settings.parseRepair,
    onRepair: (reason) => {
      context.emit({ type: "WARNING", nodeId: context.node.id, code: "PARSE_REPAIR", message: `asking the model once more: ${reason}` });
      details.retries += 1;
    },
  });
}

function isObject(value: JsonValue): value is Record<string, JsonValue> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
