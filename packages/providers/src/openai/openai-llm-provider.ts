import { ProviderError, type LlmFinishReason, type LlmModelInfo, type LlmProvider, type LlmReply, type LlmRequest, type LlmStreamChunk, type TokenUsage } from "@weft/engine";
import type { ChatCompletion } from "openai/resources/chat/completions";
import { finishReasonOf, ToolCallStream } from "../chat/tool-call-stream.js";
import { OpenAiClient, type OpenAiClientOptions } from "./openai-client.js";
import { toOpenAiRequest, toTokenUsage, toToolCalls } from "./openai-request.mapper.js";

export interface OpenAiLlmProviderOptions extends OpenAiClientOptions {
  /** Models offered to workflows, with their prices when known (cost is computed from them). */
  models: readonly LlmModelInfo[];
}

/**
 * Chat completions of OpenAI or any server that speaks its protocol (Ollama, vLLM, llama.cpp, LM Studio)
 * through the official `openai` SDK: JSON mode and JSON Schema output, conversations with tool calls,
 * token streaming with usage, cancellation through the caller's AbortSignal. Every failure is a
 * ProviderError (openai-error.mapper.ts); cancellation surfaces as an AbortError.
 */
export class OpenAiLlmProvider implements LlmProvider {
  readonly id: string;
  readonly label: string;
  readonly models: readonly LlmModelInfo[];
  readonly #client: OpenAiClient;

  constructor(options: OpenAiLlmProviderOptions) {
    this.#client = new OpenAiClient(options);
    this.id = this.#client.id;
    this.label = this.#client.label;
    this.models = options.models;
  }

  async complete(request: LlmRequest, signal: AbortSignal): Promise<LlmReply> {
    const call = await this.#client.call("chat completion", signal);
    let response: ChatCompletion;
    try {
      response = await this.#client.sdk.chat.completions.create({ ...toOpenAiRequest(request), stream: false }, { signal: call.signal, headers: call.headers });
    } catch (error) {
      throw call.fail(error);
    }
    const choice = Array.isArray(response?.choices) ? response.choices[0] : undefined;
    if (!choice?.message) throw this.#malformed("a reply without a message");
    const toolCalls = toToolCalls(choice.message.tool_calls);
    const finishReason = finishReasonOf(choice.finish_reason);
    return {
      text: typeof choice.message.content === "string" ? choice.message.content : "",
      model: response.model || request.model,
      usage: toTokenUsage(response.usage),
      ...(toolCalls ? { toolCalls } : {}),
      ...(finishReason ? { finishReason } : {}),
    };
  }

  async *stream(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmStreamChunk> {
    const call = await this.#client.call("chat stream", signal);
    let text = "";
    let model = request.model;
    let usage: TokenUsage | null = null;
    let finishReason: LlmFinishReason | undefined;
    const toolCalls = new ToolCallStream();
    try {
      const params = { ...toOpenAiRequest(request), stream: true as const, stream_options: { include_usage: true } };
      const chunks = await this.#client.sdk.chat.completions.create(params, { signal: call.signal, headers: call.headers });
      for await (const chunk of chunks) {
        model = chunk.model || model;
        if (chunk.usage) usage = toTokenUsage(chunk.usage);
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        finishReason = finishReasonOf(choice.finish_reason) ?? finishReason;
        if (choice.delta?.tool_calls?.length) {
          toolCalls.add(choice.delta.tool_calls.map((piece) => ({ index: piece.index, id: piece.id, name: piece.function?.name, arguments: piece.function?.arguments })));
        }
        const piece = choice.delta?.content ?? "";
        if (piece === "") continue;
        text += piece;
        yield { type: "token", text: piece };
      }
      // The SDK ends its iteration quietly when the signal fires: a cancellation or our timeout, not an end.
      if (call.signal.aborted) throw new Error("the stream was aborted");
    } catch (error) {
      throw call.fail(error);
    }
    // A stream the server cut short just ends (no finish_reason): never a silently truncated reply.
    if (!finishReason) throw new ProviderError("PROVIDER_UNAVAILABLE", `${this.label}'s stream ended before the reply was complete.`, { retryable: true });
    const calls = toolCalls.calls(this.label);
    yield { type: "done", reply: { text, model, usage, ...(calls.length > 0 ? { toolCalls: calls } : {}), finishReason } };
  }

  #malformed(what: string): ProviderError {
    return new ProviderError("PROVIDER_ERROR", `${this.label} answered with ${what} (not the chat-completions protocol).`, { retryable: false });
  }
}
