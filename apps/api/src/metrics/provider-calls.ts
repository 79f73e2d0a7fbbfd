import type { LlmProvider, LlmReply, LlmRequest, LlmStreamChunk } from "@weft/engine";

/** How one provider call ended: its reply (null: a stream that ended without its final chunk), or the error it failed with. */
export type ProviderCallEnd = { reply: LlmReply | null } | { error: unknown };

/**
 * The provider with every call (each attempt of a node's retries is one) reported: `begin` as it starts,
 * and the function `begin` returns as it ends — a stream at its last chunk. Metrics time calls with it,
 * traces give each a span.
 */
export function observeCalls(provider: LlmProvider, begin: (request: LlmRequest) => (end: ProviderCallEnd) => void): LlmProvider {
  return {
    id: provider.id,
    label: provider.label,
    get models() {
      return provider.models;
    },
    async complete(request, signal): Promise<LlmReply> {
      const end = begin(request);
      try {
        const reply = await provider.complete(request, signal);
        end({ reply });
        return reply;
      } catch (error) {
        end({ error });
        throw error;
      }
    },
    async *stream(request, signal): AsyncIterable<LlmStreamChunk> {
      const end = begin(request);
      let reply: LlmReply | null = null;
      try {
        for await (const chunk of provider.stream(request, signal)) {
          if (chunk.type === "done") reply = chunk.reply;
          yield chunk;
        }
      } catch (error) {
        end({ error });
        throw error;
      }
      end({ reply });
    },
  };
}

/** A provider error's stable code (ProviderError, WeftError), else "error". */
export function errorCodeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "error";
}
