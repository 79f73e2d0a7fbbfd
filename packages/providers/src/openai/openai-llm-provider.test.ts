import { ProviderError, type LlmRequest, type LlmStreamChunk } from "@weft/engine";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OpenAiMockServer } from "../testing/openai-mock-server.js";
import { OpenAiLlmProvider } from "./openai-llm-provider.js";

const API_KEY = "sk-test";
let server: OpenAiMockServer;
let provider: OpenAiLlmProvider;

const request = (overrides: Partial<LlmRequest> = {}): LlmRequest => ({ model: "gpt-4.1-mini", prompt: "Say hello.", json: false, params: {}, inputData: "", ...overrides });
const signal = () => new AbortController().signal;

async function collect(stream: AsyncIterable<LlmStreamChunk>): Promise<LlmStreamChunk[]> {
  const chunks: LlmStreamChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

beforeEach(async () => {
  server = await OpenAiMockServer.start({ apiKey: API_KEY });
  provider = new OpenAiLlmProvider({ apiKey: API_KEY, baseURL: server.baseURL, timeoutMs: 5_000, models: [{ id: "gpt-4.1-mini", label: "Mini" }] });
});

afterEach(async () => {
  await server.stop();
});

describe("OpenAiLlmProvider.complete", () => {
  it("returns the reply text, model, usage and finish reason, sending the key as a Bearer token", async () => {
    server.enqueueChat({ kind: "reply", text: "Hello.", usage: { promptTokens: 9, completionTokens: 2 } });
    const reply = await provider.complete(request(), signal());
    expect(reply).toEqual({ text: "Hello.", model: "gpt-4.1-mini", usage: { promptTokens: 9, completionTokens: 2, totalTokens: 11 }, finishReason: "stop" });
    expect(server.requests[0]).toMatchObject({ path: "/v1/chat/completions", body: { model: "gpt-4.1-mini", messages: [{ role: "user", content: "Say hello." }] } });
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it("asks for json_object, or json_schema with strict only for schemas strict mode takes", async () => {
    const open = { type: "object", properties: { a: { type: "string" } } };
    const closed = { type: "object", properties: { a: { type: "string" } }, required: ["a"], additionalProperties: false };
    await provider.complete(request({ json: true }), signal());
    await provider.complete(request({ json: true, jsonSchema: { name: "output", schema: open, strict: true } }), signal());
    await provider.complete(request({ json: true, jsonSchema: { name: "output", schema: closed, strict: true } }), signal());
    expect(server.requests.map((r) => r.body.response_format)).toEqual([
      { type: "json_object" },
      { type: "json_schema", json_schema: { name: "output", schema: open, strict: false } },
      { type: "json_schema", json_schema: { name: "output", schema: closed, strict: true } },
    ]);
  });

  it("passes sampling parameters under the wire's names and refuses non-numbers before calling", async () => {
    await provider.complete(request({ params: { temperature: 0.1, maxTokens: 40, topP: 0.5, seed: 3, max_completion_tokens: 60 } }), signal());
    expect(server.requests[0]!.body).toMatchObject({ temperature: 0.1, max_tokens: 40, top_p: 0.5, seed: 3, max_completion_tokens: 60 });
    await expect(provider.complete(request({ params: { temperature: "warm" } }), signal())).rejects.toMatchObject({ code: "INVALID_MODEL_PARAMS" });
    expect(server.requests).toHaveLength(1);
  });

  it("reports 429 as retryable with the wait the server asked for, in one HTTP call (the SDK does not retry)", async () => {
    server.enqueueChat({ kind: "error", status: 429, headers: { "retry-after": "7" } });
    const error = await failure(provider.complete(request(), signal()));
    expect(error).toMatchObject({ code: "PROVIDER_RATE_LIMITED", retryable: true, retryAfterMs: 7000 });
    expect(error.message).toContain("Rate limit reached for requests");
    expect(server.requests).toHaveLength(1);
  });

  it("reports 5xx as retryable unavailability and 400/404 as permanent with the server's words", async () => {
    server.enqueueChat({ kind: "error", status: 503, headers: { "retry-after": "1" } }, { kind: "error", status: 404 });
    expect(await failure(provider.complete(request(), signal()))).toMatchObject({ code: "PROVIDER_UNAVAILABLE", retryable: true, retryAfterMs: 1000 });
    const notFound = await failure(provider.complete(request(), signal()));
    expect(notFound).toMatchObject({ code: "PROVIDER_BAD_REQUEST", retryable: false });
    expect(notFound.message).toContain("does not exist");
  });

  it("reports a refused key as a permanent auth failure naming the setting to check", async () => {
    const wrong = new OpenAiLlmProvider({ apiKey: "sk-wrong", baseURL: server.baseURL, models: [], label: "ollama", keySetting: 'WEFT_PROVIDERS_FILE ("ollama".apiKey)' });
    const error = await failure(wrong.complete(request(), signal()));
    expect(error).toMatchObject({ code: "PROVIDER_AUTH_FAILED", retryable: false });
    expect(error.message).toBe('ollama refused the API key (HTTP 401: Incorrect API key provided.). Check WEFT_PROVIDERS_FILE ("ollama".apiKey).');
  });

  it("reads a key given as a function at every call, and sends no Authorization header without a key", async () => {
    let key = "sk-old";
    const rotating = new OpenAiLlmProvider({ apiKey: async () => key, baseURL: server.baseURL, models: [] });
    await failure(rotating.complete(request(), signal()));
    key = API_KEY;
    await rotating.complete(request(), signal());
    const keyless = await OpenAiMockServer.start();
    try {
      await new OpenAiLlmProvider({ apiKey: null, baseURL: keyless.baseURL, models: [] }).complete(request(), signal());
      expect(keyless.requests[0]!.headers).not.toHaveProperty("authorization");
    } finally {
      await keyless.stop();
    }
  });

  it("refuses a 200 answer that is not the protocol, permanently", async () => {
    server.enqueueChat({ kind: "raw", status: 200, body: '{"unexpected": true}' }, { kind: "raw", status: 200, body: "<html>proxy page</html>", contentType: "text/html" });
    expect(await failure(provider.complete(request(), signal()))).toMatchObject({ code: "PROVIDER_ERROR", retryable: false });
    expect(await failure(provider.complete(request(), signal()))).toMatchObject({ code: "PROVIDER_ERROR", retryable: false });
  });

  it("times out a server that never answers, retryably, and turns cancellation into an AbortError", async () => {
    server.enqueueChat({ kind: "hang" }, { kind: "hang" });
    const impatient = new OpenAiLlmProvider({ apiKey: API_KEY, baseURL: server.baseURL, timeoutMs: 200, models: [] });
    expect(await failure(impatient.complete(request(), signal()))).toMatchObject({ code: "PROVIDER_TIMEOUT", retryable: true });
    const controller = new AbortController();
    const pending = provider.complete(request(), controller.signal);
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });

  it("reports an unreachable server as retryable unavailability naming its URL", async () => {
    await server.stop();
    const error = await failure(provider.complete(request(), signal()));
    expect(error).toMatchObject({ code: "PROVIDER_UNAVAILABLE", retryable: true });
    expect(error.message).toContain(server.baseURL);
    server = await OpenAiMockServer.start();
  });
});

describe("OpenAiLlmProvider.stream", () => {
  it("yields tokens as they arrive and ends with the whole reply, asking for usage in the stream", async () => {
    server.enqueueChat({ kind: "reply", text: "Hello there world", tokens: ["Hel", "lo there", " world"], usage: { promptTokens: 5, completionTokens: 3 } });
    const chunks = await collect(provider.stream(request(), signal()));
    expect(chunks).toEqual([
      { type: "token", text: "Hel" },
      { type: "token", text: "lo there" },
      { type: "token", text: " world" },
      { type: "done", reply: { text: "Hello there world", model: "gpt-4.1-mini", usage: { promptTokens: 5, completionTokens: 3, totalTokens: 8 }, finishReason: "stop" } },
    ]);
    expect(server.requests[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it("refuses a stream cut short (no finish reason) retryably, and a chunk that is not JSON permanently", async () => {
    const piece = (content: string) => JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { content }, finish_reason: null }] });
    server.enqueueChat({ kind: "rawStream", events: [piece("par"), piece("tial")] }, { kind: "rawStream", events: [piece("a"), "{not json"] });
    expect(await failure(collect(provider.stream(request(), signal())))).toMatchObject({ code: "PROVIDER_UNAVAILABLE", retryable: true });
    expect(await failure(collect(provider.stream(request(), signal())))).toMatchObject({ code: "PROVIDER_ERROR", retryable: false });
  });

  it("times out a stream that stalls, retryably", async () => {
    server.enqueueChat({ kind: "reply", text: "one two three", stallAfterTokens: 1 });
    const impatient = new OpenAiLlmProvider({ apiKey: API_KEY, baseURL: server.baseURL, timeoutMs: 300, models: [] });
    expect(await failure(collect(impatient.stream(request(), signal())))).toMatchObject({ code: "PROVIDER_TIMEOUT", retryable: true });
  });

  it("maps an error status before the stream starts", async () => {
    server.enqueueChat({ kind: "error", status: 429, headers: { "retry-after": "2" } });
    expect(await failure(collect(provider.stream(request(), signal())))).toMatchObject({ code: "PROVIDER_RATE_LIMITED", retryAfterMs: 2000 });
  });

  it("stops mid-stream when cancelled and closes the connection", async () => {
    server.enqueueChat({ kind: "reply", text: "one two three four", stallAfterTokens: 2 });
    const controller = new AbortController();
    const received: string[] = [];
    const consume = (async () => {
      for await (const chunk of provider.stream(request(), controller.signal)) {
        if (chunk.type === "token") received.push(chunk.text);
        if (received.length === 2) controller.abort();
      }
    })();
    await expect(consume).rejects.toMatchObject({ name: "AbortError" });
    expect(received).toEqual(["one ", "two "]);
    await expect.poll(() => server.closedStalledStreams).toBe(1);
  });
});
