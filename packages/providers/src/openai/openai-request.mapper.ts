import { requestMessages, type LlmMessage, type LlmRequest, type LlmToolCall, type TokenUsage } from "@weft/engine";
import type { ChatCompletionCreateParamsBase, ChatCompletionMessageParam, ChatCompletionMessageToolCall } from "openai/resources/chat/completions";
import type { CompletionUsage } from "openai/resources/completions";
import { readParams } from "../chat/model-params.js";

/** Engine request → OpenAI chat request; node params accept the wire's snake_case or camelCase names. */

/** The wire's fields and the node params each is read from. */
const PARAMS = {
  temperature: ["temperature"],
  top_p: ["top_p", "topP"],
  max_tokens: ["max_tokens", "maxTokens"],
  max_completion_tokens: ["max_completion_tokens", "maxCompletionTokens"],
  seed: ["seed", "random_seed", "randomSeed"],
  presence_penalty: ["presence_penalty", "presencePenalty"],
  frequency_penalty: ["frequency_penalty", "frequencyPenalty"],
} as const;

export type OpenAiChatParams = Omit<ChatCompletionCreateParamsBase, "stream">;

export function toOpenAiRequest(request: LlmRequest): OpenAiChatParams {
  return {
    model: request.model,
    messages: requestMessages(request).map(toOpenAiMessage),
    ...toolFields(request),
    ...responseFormat(request),
    ...readParams(request.params, PARAMS),
  };
}

function toOpenAiMessage(message: LlmMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case "assistant": {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: "assistant", content: message.content };
      const toolCalls = calls.map((call) => ({ id: call.id, type: "function" as const, function: { name: call.name, arguments: call.arguments } }));
      return { role: "assistant", content: message.content === "" ? null : message.content, tool_calls: toolCalls };
    }
    case "tool":
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
    default:
      return { role: message.role, content: message.content };
  }
}

function toolFields(request: LlmRequest): Partial<OpenAiChatParams> {
  if (!request.tools?.length) return {};
  return {
    tools: request.tools.map((tool) => ({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.parameters } })),
    tool_choice: request.toolChoice ?? "auto",
    parallel_tool_calls: true,
  };
}

/**
 * A JSON Schema asks for `json_schema` output. OpenAI's strict mode refuses schemas whose objects do not
 * close (`additionalProperties: false`) and require every property, so `strict` is sent only for schemas
 * that do: the engine validates the reply against the schema either way.
 */
function responseFormat(request: LlmRequest): Partial<OpenAiChatParams> {
  const schema = request.jsonSchema;
  if (schema) {
    const strict = schema.strict && strictCompatible(schema.schema);
    return { response_format: { type: "json_schema", json_schema: { name: schema.name, schema: schema.schema, strict } } };
  }
  return request.json ? { response_format: { type: "json_object" } } : {};
}

/** Whether every object schema in it lists all its properties as required and allows no others (walked without recursion). */
export function strictCompatible(schema: unknown): boolean {
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    if (typeof node !== "object" || node === null) continue;
    const record = node as Record<string, unknown>;
    const properties = record["properties"];
    if (record["type"] === "object" || (typeof properties === "object" && properties !== null)) {
      const names = typeof properties === "object" && properties !== null ? Object.keys(properties) : [];
      const required = Array.isArray(record["required"]) ? record["required"] : [];
      if (record["additionalProperties"] !== false || names.some((name) => !required.includes(name))) return false;
    }
    for (const value of Object.values(record)) if (typeof value === "object" && value !== null) stack.push(value);
  }
  return true;
}

export function toTokenUsage(usage: CompletionUsage | null | undefined): TokenUsage | null {
  if (!usage) return null;
  const promptTokens = usage.prompt_tokens ?? 0;
  const completionTokens = usage.completion_tokens ?? 0;
  return { promptTokens, completionTokens, totalTokens: usage.total_tokens ?? promptTokens + completionTokens };
}

/** Function calls in the engine's shape; the other kinds (custom tools) Weft never offers are left out. */
export function toToolCalls(calls: readonly ChatCompletionMessageToolCall[] | null | undefined): LlmToolCall[] | undefined {
  const functions = (calls ?? []).flatMap((call) => (call.type === "function" ? [{ id: call.id, name: call.function.name, arguments: call.function.arguments ?? "" }] : []));
  return functions.length > 0 ? functions : undefined;
}
