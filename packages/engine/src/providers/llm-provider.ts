/** What the engine needs from a language-model provider. Adapters (Mistral, offline) implement it. */

export interface LlmModelInfo {
  id: string;
  label: string;
  /** True for models that are not language models (the offline provider's test models). */
  testOnly?: boolean;
}

export interface LlmRequest {
  model: string;
  prompt: string;
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
  text: string;
  model: string;
  usage: TokenUsage | null;
}

export type LlmStreamChunk = { type: "token"; text: string } | { type: "done"; reply: LlmReply };

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
