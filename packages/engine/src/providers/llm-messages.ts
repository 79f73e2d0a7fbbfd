import { parseJsonWithin } from "../limits/json-text-depth.js";
import type { JsonValue } from "../model/json-value.js";
import type { LlmMessage, LlmRequest, LlmToolCall, LlmToolDefinition } from "./llm-provider.js";

/** Tool names both OpenAI's and Mistral's chat APIs accept. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** What a provider sends: the request's conversation, or its prompt as the one user message. */
export function requestMessages(request: Pick<LlmRequest, "prompt" | "messages">): readonly LlmMessage[] {
  return request.messages ?? [{ role: "user", content: request.prompt }];
}

/** Why a tool definition cannot be sent (a name the APIs refuse, parameters that are not an object schema), or null. */
export function toolDefinitionProblem(tool: LlmToolDefinition): string | null {
  if (!TOOL_NAME_PATTERN.test(tool.name)) return `tool name "${tool.name}" must be 1–64 letters, digits, "_" or "-"`;
  const type = tool.parameters["type"];
  if (type !== undefined && type !== "object") return `the parameters of tool "${tool.name}" must be an object schema`;
  return null;
}

export type ToolArguments = { ok: true; value: Record<string, JsonValue> } | { ok: false; message: string };

/**
 * A tool call's arguments as a JSON object, parsed within the run's depth limit. A model can write
 * anything there: what is wrong comes back as a message to feed back to it, never as an exception
 * (an empty text is `{}`, as the APIs send it for a function without parameters).
 */
export function parseToolArguments(call: LlmToolCall, maxDepth: number): ToolArguments {
  if (call.arguments.trim() === "") return { ok: true, value: {} };
  let value: unknown;
  try {
    value = parseJsonWithin(call.arguments, maxDepth, `the arguments of tool call "${call.id}"`);
  } catch (error) {
    return { ok: false, message: `the arguments of ${call.name} are not valid JSON: ${(error as Error).message}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, message: `the arguments of ${call.name} must be a JSON object` };
  }
  return { ok: true, value: value as Record<string, JsonValue> };
}
