import { describe, expect, it } from "vitest";
import { FakeLlmProvider } from "../testing/fake-llm-provider.js";
import { DEFAULT_COMPLETION_TOKENS_ESTIMATE, estimateCallCost, maxCompletionTokens, modelPrice, usageCost } from "./model-cost.js";

const price = { inputUsdPerMTok: 1_000_000, outputUsdPerMTok: 2_000_000 }; // $1 a prompt token, $2 a completion token: the estimate reads as tokens
const request = { model: "m", json: false, inputData: "", params: {} };

describe("estimateCallCost", () => {
  it("bounds the prompt by its UTF-8 bytes plus 8 tokens a message, and the completion by the call's max tokens", () => {
    expect(estimateCallCost({ ...request, prompt: "hello", params: { maxTokens: 10 } }, price)).toBe(5 + 8 + 2 * 10);
    // Hangul takes three bytes a character: a Korean prompt is never underestimated.
    expect(estimateCallCost({ ...request, prompt: "안녕", params: { max_tokens: 1 } }, price)).toBe(6 + 8 + 2);
  });

  it("counts every message, the tool calls, the tool definitions and the schema", () => {
    const tools = [{ name: "t", description: "d", parameters: { type: "object" } }];
    const messages = [
      { role: "user" as const, content: "ab" },
      { role: "assistant" as const, content: "", toolCalls: [{ id: "1", name: "t", arguments: "{}" }] },
      { role: "tool" as const, toolCallId: "1", name: "t", content: "ok" },
    ];
    const toolsBytes = JSON.stringify(tools).length;
    expect(estimateCallCost({ ...request, prompt: "ab", messages, tools, params: { max_completion_tokens: 3 } }, price)).toBe(2 + 1 + 2 + 2 + 3 * 8 + toolsBytes + 2 * 3);
  });

  it("assumes DEFAULT_COMPLETION_TOKENS_ESTIMATE when the call names no max tokens", () => {
    expect(maxCompletionTokens({})).toBeNull();
    expect(estimateCallCost({ ...request, prompt: "" }, price)).toBe(8 + 2 * DEFAULT_COMPLETION_TOKENS_ESTIMATE);
  });
});

describe("prices", () => {
  it("are known only when both of a model's prices are configured", () => {
    const provider = new FakeLlmProvider(undefined, "v", { models: [{ id: "a", label: "a", inputUsdPerMTok: 0.4, outputUsdPerMTok: 1.6 }, { id: "b", label: "b", inputUsdPerMTok: 1 }] });
    expect(modelPrice(provider, "a")).toEqual({ inputUsdPerMTok: 0.4, outputUsdPerMTok: 1.6 });
    expect(modelPrice(provider, "b")).toBeNull();
    expect(modelPrice(provider, "missing")).toBeNull();
    expect(usageCost({ promptTokens: 1_000, completionTokens: 500, totalTokens: 1_500 }, { inputUsdPerMTok: 0.4, outputUsdPerMTok: 1.6 })).toBeCloseTo(0.0012, 12);
  });
});
