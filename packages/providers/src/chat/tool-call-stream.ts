import { ProviderError, type LlmFinishReason, type LlmToolCall } from "@weft/engine";

/** One streamed piece of a tool call, as OpenAI-style chat streams send them (`delta.tool_calls[]`). */
export interface ToolCallDelta {
  /** Which call the piece belongs to; pieces of one call share it. Absent: the call's position in the chunk. */
  index?: number | null | undefined;
  id?: string | null | undefined;
  name?: string | null | undefined;
  /** A piece of the arguments' JSON text (OpenAI sends it in pieces; Mistral whole, sometimes as an object). */
  arguments?: string | Record<string, unknown> | null | undefined;
}

/** What one streamed reply's tool calls may hold. */
export const TOOL_CALL_STREAM_LIMITS = Object.freeze({ maxCalls: 1_000, maxArgumentChars: 16 * 1024 * 1024 });

/**
 * Assembles the tool calls of a streamed reply: the first piece of a call brings its id and name, the
 * following ones more of its arguments. A call that ends without an id or a name is the server's fault
 * and fails the reply (retryable) rather than reaching an agent half-formed.
 */
export class ToolCallStream {
  readonly #calls = new Map<number, { id: string; name: string; arguments: string }>();
  #length = 0;

  add(deltas: readonly ToolCallDelta[]): void {
    deltas.forEach((delta, position) => {
      const index = delta.index ?? position;
      const call = this.#calls.get(index) ?? { id: "", name: "", arguments: "" };
      if (delta.id) call.id = delta.id;
      // Servers send the name once (some repeat it with every piece): it is set, never appended.
      if (delta.name) call.name = delta.name;
      if (delta.arguments !== undefined && delta.arguments !== null) {
        const piece = argumentsText(delta.arguments);
        this.#length += piece.length;
        call.arguments += piece;
      }
      this.#calls.set(index, call);
      this.#checkBounds();
    });
  }

  /**
   * A stream is the server's to end: calls and argument text past these bounds end it with an error
   * instead of growing in memory (the engine refuses a reply over a node output's limit anyway).
   */
  #checkBounds(): void {
    if (this.#calls.size <= TOOL_CALL_STREAM_LIMITS.maxCalls && this.#length <= TOOL_CALL_STREAM_LIMITS.maxArgumentChars) return;
    throw new ProviderError(
      "PROVIDER_ERROR",
      `the stream's tool calls passed ${TOOL_CALL_STREAM_LIMITS.maxCalls} calls or ${TOOL_CALL_STREAM_LIMITS.maxArgumentChars} characters of arguments`,
      { retryable: false },
    );
  }

  /** The calls in index order; empty when the reply asked for none. */
  calls(provider: string): LlmToolCall[] {
    return [...this.#calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => {
        if (call.id === "" || call.name === "") {
          throw new ProviderError("PROVIDER_UNAVAILABLE", `${provider}'s stream sent tool call ${index} without ${call.id === "" ? "an id" : "a name"}.`, { retryable: true });
        }
        return call;
      });
  }
}

/** Arguments as JSON text, whether the server sent text or (Mistral) an object. */
export function argumentsText(value: string | Record<string, unknown>): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The chat APIs' finish reasons in the engine's vocabulary (Mistral's `model_length` is a length stop). */
export function finishReasonOf(reason: string | null | undefined): LlmFinishReason | undefined {
  switch (reason) {
    case null:
    case undefined:
    case "":
      return undefined;
    case "stop":
    case "tool_calls":
    case "content_filter":
    case "length":
      return reason;
    case "model_length":
      return "length";
    case "function_call":
      return "tool_calls";
    default:
      return "other";
  }
}
