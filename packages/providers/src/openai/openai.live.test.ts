import type { LlmStreamChunk } from "@weft/engine";
import { describe, expect, it } from "vitest";
import { OpenAiEmbedder } from "./openai-embedder.js";
import { OpenAiLlmProvider } from "./openai-llm-provider.js";

// Runs only with a real key: the default suite never talks to the network.
const apiKey = process.env.OPENAI_API_KEY ?? "";
const model = process.env.OPENAI_LIVE_MODEL ?? "gpt-4.1-mini";
const baseURL = process.env.OPENAI_BASE_URL;

describe.runIf(apiKey !== "")("OpenAI API (live)", () => {
  const provider = new OpenAiLlmProvider({ apiKey, ...(baseURL ? { baseURL } : {}), models: [{ id: model, label: model }] });
  const signal = () => new AbortController().signal;

  it("answers with a JSON Schema and usage", async () => {
    const schema = { type: "object", properties: { answer: { type: "integer" } }, required: ["answer"], additionalProperties: false };
    const reply = await provider.complete({ model, prompt: "What is 6 times 7?", json: true, jsonSchema: { name: "output", schema, strict: true }, params: { temperature: 0 }, inputData: "" }, signal());
    expect(JSON.parse(reply.text)).toEqual({ answer: 42 });
    expect(reply.usage?.totalTokens).toBeGreaterThan(0);
  }, 60_000);

  it("streams tokens, then calls a tool it is required to call", async () => {
    const chunks: LlmStreamChunk[] = [];
    for await (const chunk of provider.stream({ model, prompt: "Count from 1 to 5.", json: false, params: {}, inputData: "" }, signal())) chunks.push(chunk);
    expect(chunks.filter((chunk) => chunk.type === "token").length).toBeGreaterThan(1);
    const tools = [{ name: "get_weather", description: "The weather in a city.", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }];
    const reply = await provider.complete({ model, prompt: "What is the weather in Gwangju?", json: false, params: {}, inputData: "", tools, toolChoice: "required" }, signal());
    expect(reply.toolCalls?.[0]).toMatchObject({ name: "get_weather", arguments: expect.stringContaining("Gwangju") });
  }, 60_000);

  it("embeds with text-embedding-3-small at 1536 dimensions", async () => {
    const embedder = new OpenAiEmbedder({ apiKey, ...(baseURL ? { baseURL } : {}), model: "text-embedding-3-small", dimension: 1536 });
    expect((await embedder.embed(["hello", "안녕하세요"])).map((v) => v.length)).toEqual([1536, 1536]);
  }, 60_000);
});
