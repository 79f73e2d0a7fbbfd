import { ProviderError, type LlmRequest, type LlmStreamChunk } from "@weft/engine";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MistralMockServer } from "../testing/mistral-mock-server.js";
import { MistralLlmProvider } from "./mistral-llm-provider.js";

const API_KEY = "test-key";
let server: MistralMockServer;
let provider: MistralLlmProvider;

const request = (overrides: Partial<LlmRequest> = {}): LlmRequest => ({
  model: "mistral-small-latest",
  prompt: "Say hello as JSON.",
  json: false,
  params: {},
  inputData: "",
  ...overrides,
});

const signal = () => new AbortController().signal;

async function collect(stream: AsyncIterable<LlmStreamChunk>): Promise<LlmStreamChunk[]> {
  const chunks: LlmStreamChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

beforeEach(async () => {
  server = await MistralMockServer.start({ apiKey: API_KEY });
  provider = new MistralLlmProvider({ apiKey: API_KEY, serverURL: server.url, timeoutMs: 5_000 });
});

afterEach(async () => {
  await server.stop();
});

describe("MistralLlmProvider.complete", () => {
  it("returns the reply text, model and token usage", async () => {
    server.enqueueChat({ kind: "reply", text: '{"description":"d","output":"o"}', usage: { promptTokens: 12, completionTokens: 7 } });
    const reply = await provider.complete(request(), signal());
    expect(reply).toEqual({
      text: '{"description":"d","output":"o"}',
      model: "mistral-small-latest",
      usage: { promptTokens: 12, completionTokens: 7, totalTokens: 19 },
      finishReason: "stop",
    });
    expect(server.requests[0]?.body).toMatchObject({ model: "mistral-small-latest", messages: [{ role: "user", content: "Say hello as JSON." }] });
  });

  it("asks for a JSON object only when the request wants JSON", async () => {
    await provider.complete(request({ json: true }), signal());
    await provider.complete(request({ json: false }), signal());
    expect(server.requests[0]?.body.response_format).toEqual({ type: "json_object" });
    expect(server.requests[1]?.body).not.toHaveProperty("response_format");
  });

  it("asks for json_schema output when the request carries a JSON Schema", async () => {
    const schema = { type: "object", properties: { answer: { type: "string" } }, required: ["answer"] };
    server.enqueueChat({ kind: "reply", text: '{"answer":"42"}' });
    const reply = await provider.complete(request({ json: true, jsonSchema: { name: "output", schema, strict: true } }), signal());
    expect(reply.text).toBe('{"answer":"42"}');
    expect(server.requests[0]?.body.response_format).toEqual({ type: "json_schema", json_schema: { name: "output", schema, strict: true } });
  });

  it("passes sampling parameters under Mistral's names", async () => {
    await provider.complete(request({ params: { temperature: 0.2, max_tokens: 50, topP: 0.9, seed: 7 } }), signal());
    expect(server.requests[0]?.body).toMatchObject({ temperature: 0.2, max_tokens: 50, top_p: 0.9, random_seed: 7 });
  });

  it("refuses a non-numeric parameter before calling Mistral", async () => {
    await expect(provider.complete(request({ params: { temperature: "hot" } }), signal())).rejects.toMatchObject({ code: "INVALID_MODEL_PARAMS" });
    expect(server.requests).toHaveLength(0);
  });

  it("reports 429 as retryable with the wait Mistral asked for", async () => {
    server.enqueueChat({ kind: "error", status: 429, headers: { "retry-after": "3" } });
    const error = await failure(provider.complete(request(), signal()));
    expect(error).toMatchObject({ code: "PROVIDER_RATE_LIMITED", retryable: true, retryAfterMs: 3000 });
    expect(error.message).toContain("rate limit");
  });

  it("reports 500 and 503 as retryable unavailability", async () => {
    server.enqueueChat({ kind: "error", status: 500 }, { kind: "error", status: 503 });
    expect(await failure(provider.complete(request(), signal()))).toMatchObject({ code: "PROVIDER_UNAVAILABLE", retryable: true });
    expect(await failure(provider.complete(request(), signal()))).toMatchObject({ code: "PROVIDER_UNAVAILABLE", retryable: true });
  });

  it("does not retry inside the SDK: one failed request is one HTTP call", async () => {
    server.enqueueChat({ kind: "error", status: 503 });
    await failure(provider.complete(request(), signal()));
    expect(server.requests).toHaveLength(1);
  });

  it("reports a wrong API key as a non-retryable auth failure that names the setting", async () => {
    const wrongKey = new MistralLlmProvider({ apiKey: "wrong", serverURL: server.url });
    const error = await failure(wrongKey.complete(request(), signal()));
    expect(error).toMatchObject({ code: "PROVIDER_AUTH_FAILED", retryable: false });
    expect(error.message).toContain("MISTRAL_API_KEY");
  });

  it("reports a 422 with the field Mistral complained about", async () => {
    server.enqueueChat({ kind: "error", status: 422 });
    const error = await failure(provider.complete(request(), signal()));
    expect(error).toMatchObject({ code: "PROVIDER_BAD_REQUEST", retryable: false });
    expect(error.message).toContain("body.model: Field required");
  });

  it("times out a request that never answers, as a retryable error", async () => {
    server.enqueueChat({ kind: "hang" });
    const impatient = new MistralLlmProvider({ apiKey: API_KEY, serverURL: server.url, timeoutMs: 200 });
    expect(await failure(impatient.complete(request(), signal()))).toMatchObject({ code: "PROVIDER_TIMEOUT", retryable: true });
  });

  it("reports an unreachable server as retryable unavailability", async () => {
    await server.stop();
    const error = await failure(provider.complete(request(), signal()));
    expect(error).toMatchObject({ code: "PROVIDER_UNAVAILABLE", retryable: true });
    expect(error.message).toContain(server.url);
    server = await MistralMockServer.start();
  });

  it("turns cancellation into an AbortError, not a provider failure", async () => {
    server.enqueueChat({ kind: "hang" });
    const controller = new AbortController();
    const pending = provider.complete(request(), controller.signal);
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });
});

describe("MistralLlmProvider.stream", () => {
  it("yields tokens as they arrive and ends with the whole reply and usage", async () => {
    server.enqueueChat({ kind: "reply", text: "Hello there world", tokens: ["Hel", "lo there", " world"], usage: { promptTokens: 5, completionTokens: 3 } });
    const chunks = await collect(provider.stream(request({ json: true }), signal()));
    expect(chunks).toEqual([
      { type: "token", text: "Hel" },
      { type: "token", text: "lo there" },
      { type: "token", text: " world" },
      { type: "done", reply: { text: "Hello there world", model: "mistral-small-latest", usage: { promptTokens: 5, completionTokens: 3, totalTokens: 8 }, finishReason: "stop" } },
    ]);
    expect(server.requests[0]?.body).toMatchObject({ stream: true, response_format: { type: "json_object" } });
    expect(server.requests[0]?.headers.accept).toBe("text/event-stream");
  });

  it("maps an error status before the stream starts", async () => {
    server.enqueueChat({ kind: "error", status: 429, headers: { "retry-after": "1" } });
    const error = await failure(collect(provider.stream(request(), signal())));
    expect(error).toMatchObject({ code: "PROVIDER_RATE_LIMITED", retryAfterMs: 1000 });
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
