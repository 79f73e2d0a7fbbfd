import { ProviderError, type LlmModelInfo, type LlmProvider, type LlmReply, type LlmRequest, type LlmStreamChunk, type TokenUsage } from "@weft/engine";
import { MistralClient, type MistralClientOptions } from "./mistral-client.js";
import { contentText, DEFAULT_MISTRAL_MODELS, toChatRequest, toTokenUsage } from "./mistral-request.mapper.js";

export interface MistralLlmProviderOptions extends MistralClientOptions {
  /** Models offered to workflows; see `parseMistralModels` for the MISTRAL_MODELS format. */
  models?: readonly LlmModelInfo[];
}

/**
 * Mistral chat completions through the official SDK: JSON mode when the node asks for a JSON reply,
 * token streaming, usage, cancellation through the caller's AbortSignal. Every failure is a
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
      return { text: contentText(choice?.message?.content), model: response.model, usage: toTokenUsage(response.usage) };
    } catch (error) {
      throw call.fail(error);
    }
  }

  async *stream(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmStreamChunk> {
    const call = this.client.call("chat stream", signal);
    let text = "";
    let model = request.model;
    let usage: TokenUsage | null = null;
    let finished = false;
    try {
      const events = await this.client.sdk.chat.stream(toChatRequest(request), { signal: call.signal });
      for await (const event of events) {
        const chunk = event.data;
        model = chunk.model || model;
        if (chunk.usage) usage = toTokenUsage(chunk.usage);
        if (chunk.choices[0]?.finishReason) finished = true;
        const piece = contentText(chunk.choices[0]?.delta.content);
        if (piece === "") continue;
        text += piece;
        yield { type: "token", text: piece };
      }
    } catch (error) {
      throw call.fail(error);
    }
    // A stream the server cut short just ends (no finish_reason, no [DONE]); the SDK does not complain.
    if (!finished) {
      throw new ProviderError("PROVIDER_UNAVAILABLE", "Mistral's stream ended before the reply was complete.", { retryable: true });
    }
    yield { type: "done", reply: { text, model, usage } };
  }
}
