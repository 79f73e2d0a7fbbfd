import type { LlmRequest, LlmStreamChunk, LlmToolDefinition } from "@weft/engine";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OpenAiMockServer } from "../testing/openai-mock-server.js";
import { OpenAiLlmProvider } from "./openai-llm-provider.js";

let server: OpenAiMockServer;
let provider: OpenAiLlmProvider;

const weather: LlmToolDefinition = {
  name: "get_weather",
  description: "The weather in a city.",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

const conversation: LlmRequest = {
  model: "gpt-4.1-mini",
  prompt: "Weather in Gwangju and Seoul?",
  json: false,
  params: {},
  inputData: "",
  tools: [weather],
  messages: [
    { role: "system", content: "Use tools." },
    { role: "user", content: "Weather in Gwangju and Seoul?" },
    { role: "assistant", content: "", toolCalls: [{ id: "call_1", name: "get_weather", arguments: '{"city":"Gwangju"}' }] },
    { role: "tool", toolCallId: "call_1", name: "get_weather", content: '{"sky":"clear"}' },
  ],
};

beforeEach(async () => {
  server = await OpenAiMockServer.start();
  provider = new OpenAiLlmProvider({ apiKey: null, baseURL: server.baseURL, models: [] });
});

afterEach(async () => {
  await server.stop();
});

describe("OpenAI tool calls", () => {
  it("sends the conversation and the tools in OpenAI's shape", async () => {
    await provider.complete({ ...conversation, toolChoice: "none" }, new AbortController().signal);
    const body = server.requests[0]!.body;
    expect(body.messages).toEqual([
      { role: "system", content: "Use tools." },
      { role: "user", content: "Weather in Gwangju and Seoul?" },
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Gwangju"}' } }] },
      { role: "tool", tool_call_id: "call_1", content: '{"sky":"clear"}' },
    ]);
    expect(body.tools).toEqual([{ type: "function", function: weather }]);
    expect(body).toMatchObject({ tool_choice: "none", parallel_tool_calls: true });
  });

  it("returns parallel calls with their arguments as JSON text, even when the text is not JSON", async () => {
    server.enqueueChat({
      kind: "reply",
      text: "",
      toolCalls: [
        { id: "call_2", name: "get_weather", arguments: '{"city":"Seoul"}' },
        { id: "call_3", name: "get_weather", arguments: '{"city": "Bus' },
      ],
    });
    const reply = await provider.complete(conversation, new AbortController().signal);
    expect(reply.toolCalls).toEqual([
      { id: "call_2", name: "get_weather", arguments: '{"city":"Seoul"}' },
      { id: "call_3", name: "get_weather", arguments: '{"city": "Bus' },
    ]);
    expect(reply).toMatchObject({ text: "", finishReason: "tool_calls" });
  });

  it("assembles calls whose arguments are streamed in pieces", async () => {
    server.enqueueChat({
      kind: "reply",
      text: "Looking up. ",
      toolCalls: [
        { id: "call_4", name: "get_weather", arguments: '{"city":"Daejeon","units":"metric"}' },
        { id: "call_5", name: "get_weather", arguments: '{"city":"Jeju"}' },
      ],
    });
    const chunks: LlmStreamChunk[] = [];
    for await (const chunk of provider.stream(conversation, new AbortController().signal)) chunks.push(chunk);
    expect(chunks.at(-1)).toMatchObject({
      type: "done",
      reply: {
        text: "Looking up. ",
        finishReason: "tool_calls",
        toolCalls: [
          { id: "call_4", name: "get_weather", arguments: '{"city":"Daejeon","units":"metric"}' },
          { id: "call_5", name: "get_weather", arguments: '{"city":"Jeju"}' },
        ],
      },
    });
  });
});
