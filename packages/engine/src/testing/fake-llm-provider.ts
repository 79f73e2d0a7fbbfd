import type { LlmModelInfo, LlmProvider, LlmReply, LlmRequest, LlmStreamChunk, TokenUsage } from "../providers/llm-provider.js";

export interface FakeCall {
  request: LlmRequest;
  signal: AbortSignal;
}

export type FakeAnswer = (request: LlmRequest, call: FakeCall) => string | Promise<string>;

/** JSON in the ResultParser's format. */
export function resultJson(output: string, description = `saw ${output.length} chars`): string {
  return JSON.stringify({ description, output });
}

/**
 * A provider whose answers a test scripts. By default it echoes the prompt as output. Records every
 * call and how many were in flight at once.
 */
export class FakeLlmProvider implements LlmProvider {
  readonly id: string;
  readonly label = "Fake provider for tests";
  readonly models: readonly LlmModelInfo[];
  readonly calls: FakeCall[] = [];
  inFlight = 0;
  maxInFlight = 0;
  readonly #answer: FakeAnswer;
  readonly #usage: TokenUsage | null;

  /** `models`: what it offers (default one test model "m", unpriced); `usage`: what each reply reports. */
  constructor(answer: FakeAnswer = (request) => resultJson(request.prompt), id = "fake", options: { models?: readonly LlmModelInfo[]; usage?: TokenUsage | null } = {}) {
    this.#answer = answer;
    this.id = id;
    this.models = options.models ?? [{ id: "m", label: "m", testOnly: true }];
    this.#usage = options.usage === undefined ? { promptTokens: 1, completionTokens: 2, totalTokens: 3 } : options.usage;
  }

  async complete(request: LlmRequest, signal: AbortSignal): Promise<LlmReply> {
    const call = { request, signal };
    this.calls.push(call);
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      const text = await this.#answer(request, call);
      return { text, model: request.model, usage: this.#usage };
    } finally {
      this.inFlight -= 1;
    }
  }

  async *stream(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmStreamChunk> {
    const reply = await this.complete(request, signal);
    const middle = Math.floor(reply.text.length / 2);
    yield { type: "token", text: reply.text.slice(0, middle) };
    yield { type: "token", text: reply.text.slice(middle) };
    yield { type: "done", reply };
  }
}

export function providers(...list: LlmProvider[]): ReadonlyMap<string, LlmProvider> {
  return new Map(list.map((provider) => [provider.id, provider]));
}
