import { describe, expect, it } from "vitest";
import { MistralEmbedder } from "./mistral-embedder.js";
import { MistralLlmProvider } from "./mistral-llm-provider.js";

// Runs only with a real key: the default suite never talks to the network.
const apiKey = process.env.MISTRAL_API_KEY ?? "";
const model = process.env.MISTRAL_LIVE_MODEL ?? "mistral-small-latest";

describe.runIf(apiKey !== "")("Mistral API (live)", () => {
  const options = { apiKey, ...(process.env.MISTRAL_SERVER_URL ? { serverURL: process.env.MISTRAL_SERVER_URL } : {}) };

  it("answers in JSON mode with usage", async () => {
    const provider = new MistralLlmProvider(options);
    const reply = await provider.complete(
      { model, prompt: 'Reply with the JSON object {"description": "greeting", "output": "hello"} and nothing else.', json: true, params: { temperature: 0 }, inputData: "" },
      new AbortController().signal,
    );
    expect(JSON.parse(reply.text)).toHaveProperty("output");
    expect(reply.usage?.totalTokens).toBeGreaterThan(0);
  }, 60_000);

  it("streams tokens", async () => {
    const provider = new MistralLlmProvider(options);
    let tokens = 0;
    let text = "";
    for await (const chunk of provider.stream({ model, prompt: "Count from 1 to 5.", json: false, params: {}, inputData: "" }, new AbortController().signal)) {
      if (chunk.type === "token") tokens++;
      else text = chunk.reply.text;
    }
    expect(tokens).toBeGreaterThan(1);
    expect(text).toMatch(/5/);
  }, 60_000);

  it("embeds with mistral-embed at 1024 dimensions", async () => {
    const vectors = await new MistralEmbedder(options).embed(["hello", "안녕하세요"]);
    expect(vectors.map((v) => v.length)).toEqual([1024, 1024]);
  }, 60_000);
});
