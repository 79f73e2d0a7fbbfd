import type { LlmRequest, LlmStreamChunk, LlmToolDefinition } from "@weft/engine";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MistralMockServer } from "../testing/mistral-mock-server.js";
import { MistralLlmProvider } from "./mistral-llm-provider.js";

let server: MistralMockServer;
let provider: MistralLlmProvider;

const weather: LlmToolDefinition = {
  name: "get_weather",
  description: "The weather in a city.",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

const conversation: LlmRequest = {
  model: "mistral-small-latest",
  prompt: "What is the weather in Gwangju?",
  json: false,
  params: {},
  inputData: "",
  tools: [weather],
  messages: [
    { role: "system", content: "You answer with tools." },
    { role: "user", content: "What is the weather in Gwangju?" },
    { role: "assistant", content: "", toolCalls: [{ id: "call00001", name: "get_weather", arguments: '{"city":"Gwangju"}' }] },
    { role: "tool", toolCallId: "call00001", name: "get_weather", content: '{"sky":"clear"}' },
  ],
};

beforeEach(async () => {
  server = await MistralMockServer.start({ apiKey: "k" });
  provider = new MistralLlmProvider({ apiKey: "k", serverURL: server.url, timeoutMs: 5_000 });
});

afterEach(async () => {
  await server.stop();
});

describe("Mistral tool calls", () => {
  it("sends the conversation and the tools in Mistral's shape", async () => {
    await provider.complete({ ...conversation, toolChoice: "required" }, new AbortController().signal);
    const body = server.requests[0]!.body;
    expect(body.messages).toEqual([
      { role: "system", content: "You answer with tools." },
      { role: "user", content: "What is the weather in Gwangju?" },
      { role: "assistant", content: "", prefix: false, tool_calls: [{ id: "call00001", type: "function", index: 0, function: { name: "get_weather", arguments: '{"city":"Gwangju"}' } }] },
      { role: "tool", content: '{"sky":"clear"}', tool_call_id: "call00001", name: "get_weather" },
    ]);
    expect(body.tools).toEqual([{ type: "function", function: weather }]);
    expect(body).toMatchObject({ tool_choice: "required", parallel_tool_calls: true });
  });

  it("sends no tool fields when the request has no tools", async () => {
    await provider.complete({ ...conversation, tools: [] }, new AbortController().signal);
    expect(server.requests[0]!.body).not.toHaveProperty("tools");
    expect(server.requests[0]!.body).not.toHaveProperty("tool_choice");
  });

  it("returns the calls the model asked for, with their arguments as JSON text", async () => {
    server.enqueueChat({
      kind: "reply",
      text: "",
      toolCalls: [
        { id: "call00002", name: "get_weather", arguments: '{"city":"Seoul"}' },
        { id: "call00003", name: "get_weather", arguments: '{"city":"Busan"}' },
      ],
    });
    const reply = await provider.complete(conversation, new AbortController().signal);
    expect(reply.toolCalls).toEqual([
      { id: "call00002", name: "get_weather", arguments: '{"city":"Seoul"}' },
      { id: "call00003", name: "get_weather", arguments: '{"city":"Busan"}' },
    ]);
    expect(reply.finishReason).toBe("tool_calls");
  });

  it("assembles the tool calls of a streamed reply in the final chunk", async () => {
    server.enqueueChat({ kind: "reply", text: "Checking. ", toolCalls: [{ id: "call00004", name: "get_weather", arguments: '{"city":"Jeju"}' }] });
    const chunks: LlmStreamChunk[] = [];
    for await (const chunk of provider.stream(conversation, new AbortController().signal)) chunks.push(chunk);
    expect(chunks.filter((chunk) => chunk.type === "token")).toEqual([{ type: "token", text: "Checking. " }]);
    const done = chunks.at(-1);
    expect(done).toMatchObject({ type: "done", reply: { text: "Checking. ", finishReason: "tool_calls", toolCalls: [{ id: "call00004", name: "get_weather", arguments: '{"city":"Jeju"}' }] } });
  });

  it("reports a reply cut short by the token limit as a length stop", async () => {
    server.enqueueChat({ kind: "reply", text: "partial", finishReason: "model_length" });
    expect((await provider.complete(conversation, new AbortController().signal)).finishReason).toBe("length");
  });
});
