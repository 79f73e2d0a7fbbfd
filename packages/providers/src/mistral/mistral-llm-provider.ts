import { ProviderError, type LlmFinishReason, type LlmModelInfo, type LlmProvider, type LlmReply, type LlmRequest, type LlmStreamChunk, type TokenUsage } from "@weft/engine";
import { finishReasonOf, ToolCallStream } from "../chat/tool-call-stream.js";
import { MistralClient, type MistralClientOptions } from "./mistral-client.js";
import { contentText, DEFAULT_MISTRAL_MODELS, toChatRequest, toTokenUsage, toToolCalls } from "./mistral-request.mapper.js";

export interface MistralLlmProviderOptions extends MistralClientOptions {
  /** Models offered to workflows; see `parseMistralModels` for the MISTRAL_MODELS format. */
  models?: readonly LlmModelInfo[];
}

/**
 * Mistral chat completions through the official SDK: JSON mode when the node asks for a JSON reply,
 * conversations with tool calls, token streaming, usage, cancellation through the caller's AbortSignal. Every failure is a
 * ProviderError (see mistral-error.mapper.ts); cancellation surfaces as an AbortError.
 */
export class MistralLlmProvider implements LlmProvider {
  readonly id = "mistral";
  readonly label = "Mistral";
  readonly models: readonly LlmModelInfo[];
  private readonly client: MistralClient;

  constructor(options: MistralLlmProviderOptions) {
    this.client = new MistralClient(options);
    this.models = options.models ?? DEFAULT_MISTRAL_MODELS;
  }

  async complete(request: LlmRequest, signal: AbortSignal): Promise<LlmReply> {
    const call = this.client.call("chat completion", signal);
    try {
      const response = await this.client.sdk.chat.complete(toChatRequest(request), { signal: call.signal });
      const choice = response.choices[0];
      const toolCalls = toToolCalls(choice?.message?.toolCalls);
      const finishReason = finishReasonOf(choice?.finishReason);
      return {
        text: contentText(choice?.message?.content),
        model: response.model,
        usage: toTokenUsage(response.usage),
        ...(toolCalls ? { toolCalls } : {}),
        ...(finishReason ? { finishReason } : {}),
      };
    } catch (error) {
      throw call.fail(error);
    }
  }

  async *stream(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmStreamChunk> {
    const call = this.client.call("chat stream", signal);
    let text = "";
    let model = request.model;
    let usage: TokenUsage | null = null;
    let finishReason: LlmFinishReason | undefined;
    const toolCalls = new ToolCallStream();
    try {
      const events = await this.client.sdk.chat.stream(toChatRequest(request), { signal: call.signal });
      for await (const event of events) {
        const chunk = event.data;
        const choice = chunk.choices[0];
        model = chunk.model || model;
        if (chunk.usage) usage = toTokenUsage(chunk.usage);
        finishReason = finishReasonOf(choice?.finishReason) ?? finishReason;
        if (choice?.delta.toolCalls?.length) {
          toolCalls.add(choice.delta.toolCalls.map((piece) => ({ index: piece.index, id: piece.id === "null" ? null : piece.id, name: piece.function.name, arguments: piece.function.arguments })));
        }
        const piece = contentText(choice?.delta.content);
        if (piece === "") continue;
        text += piece;
        yield { type: "token", text: piece };
      }
    } catch (error) {
      throw call.fail(error);
    }
    // A stream the server cut short just ends (no finish_reason, no [DONE]); the SDK does not complain.
    if (!finishReason) {
      throw new ProviderError("PROVIDER_UNAVAILABLE", "Mistral's stream ended before the reply was complete.", { retryable: true });
    }
    const calls = toolCalls.calls("Mistral");
    yield { type: "done", reply: { text, model, usage, ...(calls.length > 0 ? { toolCalls: calls } : {}), finishReason } };
  }
}
