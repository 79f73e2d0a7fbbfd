import { abortableSleep, type Sleep } from "../model/abortable-sleep.js";
import { ProviderError } from "../model/errors.js";
import { compileUserPattern, type UserPattern } from "../patterns/user-pattern.js";
import { requestMessages } from "./llm-messages.js";
import type { LlmModelInfo, LlmProvider, LlmReply, LlmRequest, LlmStreamChunk, LlmToolCall, TokenUsage } from "./llm-provider.js";

export const OFFLINE_PROVIDER_ID = "offline";

/** How many times the `flaky` model fails for one prompt before it answers. */
export const FLAKY_FAILURES = 2;

const OFFLINE_MODELS: readonly LlmModelInfo[] = [
  { id: "echo", label: "echo — replies with its input data (test model)", testOnly: true },
  { id: "invalid-json", label: "invalid-json — never replies in JSON (test model)", testOnly: true },
  { id: "flaky", label: "flaky — fails twice per prompt, then echoes (test model)", testOnly: true },
  { id: "scripted", label: "scripted — answers params.replies in turn, one per node invocation or agent step; calls tools when told (test model)", testOnly: true },
];

/**
 * Deterministic stand-ins for a language model, for demos and tests without a key or a network.
 * They are NOT language models: `echo` hands the node's input data back in the ResultParser's format,
 * `invalid-json` exercises parse errors, `flaky` exercises retries, `scripted` answers what the node's
 * `params.replies` says (SPEC-V2 §9: the k-th invocation of the node gets `replies[min(k, len − 1)]`, a
 * string as the raw reply, anything else as its JSON; `params.match` picks another reply list by a pattern
 * on the prompt), so routing and loops are deterministic. In a conversation (an agent) the k-th turn of the
 * model — k counted from the assistant messages so far — answers `replies[min(k, len − 1)]`, and a reply
 * `{"toolCalls": [{"name", "arguments"}], "text"?}` asks for those tool calls when the request offers tools:
 * a tool-calling model for agents without a network.
 * `params.delayMs` makes any of them wait (abortably) before answering. Token usage is an approximation (characters ÷ 4, rounded up),
 * not a tokenizer's count.
 */
export class OfflineLlmProvider implements LlmProvider {
  readonly id = OFFLINE_PROVIDER_ID;
  readonly label = "Offline test models (not a language model)";
  readonly models = OFFLINE_MODELS;
  readonly #sleep: Sleep;
  /** Failures so far of the `flaky` model, keyed by a hash of the prompt (one counter per node prompt). */
  readonly #flakyFailures = new Map<string, number>();

  constructor(options: { sleep?: Sleep } = {}) {
    this.#sleep = options.sleep ?? abortableSleep;
  }

  async complete(request: LlmRequest, signal: AbortSignal): Promise<LlmReply> {
    signal.throwIfAborted();
    const delayMs = readDelay(request.params);
    if (delayMs > 0) await this.#sleep(delayMs, signal);
    return this.#answer(request);
  }

  async *stream(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmStreamChunk> {
    const reply = await this.complete(request, signal);
    for (const text of splitIntoChunks(reply.text, STREAM_CHUNKS)) {
      signal.throwIfAborted();
      yield { type: "token", text };
    }
    yield { type: "done", reply };
  }

  #answer(request: LlmRequest): LlmReply {
    switch (request.model) {
      case "echo":
        return reply(request, echoReply(request.inputData));
      case "invalid-json":
        return reply(request, "This is the offline invalid-json test model: it never answers in JSON.");
      case "flaky":
        this.#failIfFlaky(request.prompt);
        return reply(request, echoReply(request.inputData));
      case "scripted":
        return scriptedReply(request);
      default:
        throw new ProviderError("PROVIDER_BAD_REQUEST", `the offline provider has no model "${request.model}"`, {
          retryable: false,
          status: 404,
        });
    }
  }

  #failIfFlaky(prompt: string): void {
    const key = fnv1a(prompt);
    const failures = this.#flakyFailures.get(key) ?? 0;
    if (failures >= FLAKY_FAILURES) return;
    this.#flakyFailures.set(key, failures + 1);
    throw new ProviderError(
      "PROVIDER_UNAVAILABLE",
      `offline flaky model: simulated transient failure ${failures + 1} of ${FLAKY_FAILURES}`,
      { retryable: true, status: 503 },
    );
  }
}

const STREAM_CHUNKS = 4;

/** Longest `params.match[].pattern` the scripted model accepts (as guardrail patterns). */
export const SCRIPTED_PATTERN_MAX_LENGTH = 500;

/**
 * Stateless: the request says which invocation of the node this is (or, in a conversation, which turn).
 * With `params.match`, the first entry whose pattern finds the rendered prompt — what a model would read —
 * answers from its own `replies`, so one workflow file can route differently by input; otherwise
 * `params.replies`.
 */
function scriptedReply(request: LlmRequest): LlmReply {
  const replies = matchedReplies(request) ?? request.params.replies;
  if (!Array.isArray(replies) || replies.length === 0) throw scriptedMisuse("the offline scripted model needs params.replies: a non-empty list of replies");
  const turn = request.messages ? request.messages.filter((message) => message.role === "assistant").length : (request.invocationIndex ?? 0);
  const next: unknown = replies[Math.min(turn, replies.length - 1)];
  const calls = request.tools && request.tools.length > 0 ? scriptedToolCalls(next, turn) : null;
  if (calls) {
    const text = typeof (next as { text?: unknown }).text === "string" ? (next as { text: string }).text : "";
    return { ...reply(request, text), toolCalls: calls, finishReason: "tool_calls" };
  }
  return { ...reply(request, typeof next === "string" ? next : JSON.stringify(next)), finishReason: "stop" };
}

/** `{"toolCalls": [{"name", "arguments"}]}`: the calls, with ids `call_<turn>_<n>` (from 1); null for any other reply. */
function scriptedToolCalls(next: unknown, turn: number): LlmToolCall[] | null {
  if (next === null || typeof next !== "object" || Array.isArray(next) || !("toolCalls" in next)) return null;
  const calls = (next as { toolCalls: unknown }).toolCalls;
  if (!Array.isArray(calls) || calls.length === 0) throw scriptedMisuse("a scripted reply's toolCalls must be a non-empty list of {name, arguments}");
  return calls.map((call: unknown, k) => {
    const { name, arguments: args } = (call ?? {}) as { name?: unknown; arguments?: unknown };
    if (typeof name !== "string") throw scriptedMisuse(`toolCalls[${k}] needs a name`);
    // A string is sent as written (a test of arguments that are not JSON); anything else as its JSON.
    return { id: `call_${turn + 1}_${k + 1}`, name, arguments: typeof args === "string" ? args : JSON.stringify(args ?? {}) };
  });
}

function matchedReplies(request: LlmRequest): unknown[] | null {
  const match = request.params.match;
  if (match === undefined) return null;
  if (!Array.isArray(match)) throw scriptedMisuse("params.match must be a list of {pattern, replies}");
  for (const [index, entry] of match.entries()) {
    const { pattern, replies } = (entry ?? {}) as { pattern?: unknown; replies?: unknown };
    if (typeof pattern !== "string" || pattern.length > SCRIPTED_PATTERN_MAX_LENGTH || !Array.isArray(replies) || replies.length === 0) {
      throw scriptedMisuse(`params.match[${index}] needs pattern (a regular expression of at most ${SCRIPTED_PATTERN_MAX_LENGTH} characters) and replies (a non-empty list)`);
    }
    if (compilePattern(pattern, index).test(request.prompt)) return replies;
  }
  return null;
}

function compilePattern(pattern: string, index: number): UserPattern {
  try {
    return compileUserPattern(pattern, { ignoreCase: true });
  } catch (error) {
    throw scriptedMisuse(`params.match[${index}].pattern: ${(error as Error).message}`);
  }
}

function scriptedMisuse(message: string): ProviderError {
  return new ProviderError("PROVIDER_BAD_REQUEST", message, { retryable: false, status: 400 });
}

function echoReply(inputData: string): string {
  return JSON.stringify({ description: `echo of ${inputData.length} characters of input data`, output: inputData });
}

function reply(request: LlmRequest, text: string): LlmReply {
  const prompt = request.messages ? requestMessages(request).map((message) => message.content).join("\n") : request.prompt;
  return { text, model: request.model, usage: approximateUsage(prompt, text) };
}

/** Characters ÷ 4, rounded up: an approximation labelled as such, not a tokenizer. */
export function approximateUsage(prompt: string, completion: string): TokenUsage {
  const promptTokens = Math.ceil(prompt.length / 4);
  const completionTokens = Math.ceil(completion.length / 4);
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}

function readDelay(params: Record<string, unknown>): number {
  const value = params.delayMs;
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

function splitIntoChunks(text: string, count: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / count));
  const chunks: string[] = [];
  for (let start = 0; start < text.length; start += size) chunks.push(text.slice(start, start + size));
  return chunks;
}

/** 32-bit FNV-1a, hex: a short deterministic key for a prompt. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16);
}
