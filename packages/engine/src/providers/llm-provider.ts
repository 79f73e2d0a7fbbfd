/** What the engine needs from a language-model provider. Adapters (Mistral, offline) implement it. */

export interface LlmModelInfo {
  id: string;
  label: string;
  /** True for models that are not language models (the offline provider's test models). */
  testOnly?: boolean;
  /** Price of a million prompt tokens in US dollars, when known (WEFT_PROVIDERS_FILE): what cost is computed from. */
  inputUsdPerMTok?: number;
  /** Price of a million completion tokens in US dollars, when known. */
  outputUsdPerMTok?: number;
}

/**
 * A tool the model may ask to call: a function with a JSON Schema of its arguments, as OpenAI's and
 * Mistral's chat APIs take it. Names match TOOL_NAME_PATTERN (`^[A-Za-z0-9_-]{1,64}$`, what both accept).
 */
export interface LlmToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments: an object schema (`{"type": "object", "properties": …}`). */
  parameters: Record<string, unknown>;
}

/** A call the model asked for. */
export interface LlmToolCall {
  /** The provider's id of the call; its result is sent back under it (a `tool` message's `toolCallId`). */
  id: string;
  name: string;
  /**
   * The arguments as the model wrote them: JSON text, neither parsed nor checked (a model can write
   * invalid JSON; `parseToolArguments` parses within the run's depth limit and says what is wrong).
   */
  arguments: string;
}

/**
 * One message of a conversation (`LlmRequest.messages`): an agent's system prompt and task, the
 * model's earlier turns with the tool calls it asked for, and each call's result as a `tool` message.
 */
export type LlmMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string; toolCalls?: readonly LlmToolCall[] }
  | { role: "tool"; toolCallId: string; name: string; content: string };

/** Why the model stopped, in one vocabulary for every provider. */
export type LlmFinishReason = "stop" | "length" | "tool_calls" | "content_filter" | "other";

export interface LlmRequest {
  model: string;
  /**
   * The prompt, sent as one user message. With `messages` the providers send those instead, and `prompt`
   * is the conversation's last user message (what the offline models and `params.match` read).
   */
  prompt: string;
  /** A whole conversation (system, user, assistant and tool messages, in order); see `requestMessages`. */
  messages?: readonly LlmMessage[];
  /** Tools the model may call; a reply then may hold `toolCalls` instead of (or beside) text. */
  tools?: readonly LlmToolDefinition[];
  /**
   * With `tools`: `auto` (the default) lets the model choose, `required` makes it call at least one,
   * `none` forbids calls (a last step that must answer). Several calls in one reply are allowed.
   */
  toolChoice?: "auto" | "required" | "none";
  /** Ask the provider for a JSON object reply where it supports it (Mistral's JSON mode). */
  json: boolean;
  params: Record<string, unknown>;
  /** The node's input_data, for providers that answer from it (the offline echo model). */
  inputData: string;
  /**
   * Ask for a reply that matches this JSON Schema where the provider supports it (Mistral's
   * `response_format` of type `json_schema`); set together with `json`. The engine validates the reply
   * against it either way.
   */
  jsonSchema?: { name: string; schema: Record<string, unknown>; strict: boolean };
  /** 0-based count of the node's earlier invocations in the run (the offline `scripted` model answers by it). */
  invocationIndex?: number;
  /** Which run, node invocation and retry attempt the call belongs to (set by the engine; for traces and logs). */
  origin?: LlmCallOrigin;
}

/** Where a provider call comes from: each attempt of a node's retries is a call of its own. */
export interface LlmCallOrigin {
  runId: string;
  nodeId: string;
  /** The node's invocation path (`""` at top level). */
  invocation: string;
  /** 1 for the first try, then one more per retry of the same request. */
  attempt: number;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface LlmReply {
  /** The reply's text; may be empty when the model only asked for tool calls. */
  text: string;
  model: string;
  usage: TokenUsage | null;
  /** The tool calls the model asked for, in its order (only with `tools` in the request); absent: none. */
  toolCalls?: LlmToolCall[];
  /** Why the model stopped, when the provider said. */
  finishReason?: LlmFinishReason;
}

/** A stream's text arrives as `token`s; tool calls arrive whole, in the `done` chunk's reply. */
export type LlmStreamChunk = { type: "token"; text: string } | { type: "done"; reply: LlmReply };

/**
 * A model provider. `complete` and `stream` take the same request: a prompt, or a conversation with tools
 * (a provider without tool calls answers in text and never returns `toolCalls`). Failures are
 * ProviderErrors (retryable or not, with `retryAfterMs`); cancellation through the signal is an AbortError.
 */
export interface LlmProvider {
  readonly id: string;
  readonly label: string;
  readonly models: readonly LlmModelInfo[];
  complete(request: LlmRequest, signal: AbortSignal): Promise<LlmReply>;
  /** Streams text tokens; the last chunk is `done` with the whole reply and its usage. */
  stream(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmStreamChunk>;
}

/** Providers by id. The executor resolves a node's `provider` through it. */
export type LlmProviders = ReadonlyMap<string, LlmProvider>;

export function emptyUsage(): TokenUsage {
  return { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
}

export function addUsage(total: TokenUsage, more: TokenUsage | null): TokenUsage {
  if (!more) return total;
  return {
    promptTokens: total.promptTokens + more.promptTokens,
    completionTokens: total.completionTokens + more.completionTokens,
    totalTokens: total.totalTokens + more.totalTokens,
  };
}
