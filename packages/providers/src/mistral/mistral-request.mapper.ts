import { requestMessages, type LlmMessage, type LlmModelInfo, type LlmRequest, type LlmToolCall, type TokenUsage } from "@weft/engine";
import type { ChatCompletionRequest, ToolCall, UsageInfo } from "@mistralai/mistralai/models/components";
import { parseModelList } from "../chat/model-list.js";
import { readParams } from "../chat/model-params.js";
import { argumentsText } from "../chat/tool-call-stream.js";

/** Engine request → Mistral chat request; node params accept Mistral's snake_case or camelCase names. */

/** Mistral's fields and the node params each is read from. */
const PARAMS = {
  temperature: ["temperature"],
  topP: ["top_p", "topP"],
  maxTokens: ["max_tokens", "maxTokens"],
  randomSeed: ["random_seed", "randomSeed", "seed"],
} as const;

export function toChatRequest(request: LlmRequest): ChatCompletionRequest {
  const params: Partial<ChatCompletionRequest> = readParams(request.params, PARAMS);
  return {
    model: request.model,
    messages: requestMessages(request).map(toMistralMessage),
    ...toolFields(request),
    ...responseFormat(request),
    ...params,
  };
}

type MistralMessage = ChatCompletionRequest["messages"][number];

function toMistralMessage(message: LlmMessage): MistralMessage {
  switch (message.role) {
    case "assistant":
      return {
        role: "assistant",
        content: message.content,
        ...(message.toolCalls?.length ? { toolCalls: message.toolCalls.map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } })) } : {}),
      };
    case "tool":
      return { role: "tool", content: message.content, toolCallId: message.toolCallId, name: message.name };
    default:
      return { role: message.role, content: message.content };
  }
}

/** Tools as Mistral's functions; several calls in one reply are allowed (`parallelToolCalls`). */
function toolFields(request: LlmRequest): Partial<ChatCompletionRequest> {
  if (!request.tools?.length) return {};
  return {
    tools: request.tools.map((tool) => ({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.parameters } })),
    toolChoice: request.toolChoice ?? "auto",
    parallelToolCalls: true,
  };
}

/** Mistral's tool calls in the engine's shape (arguments as JSON text, whichever form Mistral used). */
export function toToolCalls(calls: readonly ToolCall[] | null | undefined): LlmToolCall[] | undefined {
  if (!calls?.length) return undefined;
  return calls.map((call) => ({ id: call.id ?? "", name: call.function.name, arguments: argumentsText(call.function.arguments) }));
}

/** A JSON Schema asks for Mistral's `json_schema` output (constrained decoding); plain JSON mode otherwise. */
function responseFormat(request: LlmRequest): Partial<ChatCompletionRequest> {
  const schema = request.jsonSchema;
  if (schema) {
    return { responseFormat: { type: "json_schema", jsonSchema: { name: schema.name, schemaDefinition: schema.schema, strict: schema.strict } } };
  }
  return request.json ? { responseFormat: { type: "json_object" } } : {};
}

export function toTokenUsage(usage: UsageInfo | null | undefined): TokenUsage | null {
  if (!usage) return null;
  return {
    promptTokens: usage.promptTokens ?? 0,
    completionTokens: usage.completionTokens ?? 0,
    totalTokens: usage.totalTokens ?? (usage.promptTokens ?? 0) + (usage.completionTokens ?? 0),
  };
}

/** Message content is a string, or for some models a list of chunks of which we keep the text ones. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((chunk: { type?: string; text?: unknown }) => (chunk.type === "text" && typeof chunk.text === "string" ? chunk.text : ""))
    .join("");
}

export const DEFAULT_MISTRAL_MODELS: readonly LlmModelInfo[] = [
  { id: "mistral-small-latest", label: "Mistral Small" },
  { id: "mistral-medium-latest", label: "Mistral Medium" },
  { id: "mistral-large-latest", label: "Mistral Large" },
  { id: "open-mistral-nemo", label: "Mistral NeMo" },
];

/**
 * Parses MISTRAL_MODELS: comma-separated ids, each optionally `id=Label`
 * ("mistral-small-latest=Small,ministral-8b-latest"). Empty → the default list.
 */
export function parseMistralModels(spec: string | undefined): LlmModelInfo[] {
  return parseModelList(spec, "MISTRAL_MODELS", DEFAULT_MISTRAL_MODELS);
}
