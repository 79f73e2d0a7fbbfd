import { describe, expect, it } from "vitest";
import { parseToolArguments, requestMessages, toolDefinitionProblem } from "./llm-messages.js";

const call = (text: string) => ({ id: "c1", name: "lookup", arguments: text });

describe("requestMessages", () => {
  it("sends a prompt alone as one user message", () => {
    expect(requestMessages({ prompt: "hi" })).toEqual([{ role: "user", content: "hi" }]);
  });

  it("sends a conversation as it is", () => {
    const messages = [{ role: "system" as const, content: "s" }, { role: "user" as const, content: "u" }];
    expect(requestMessages({ prompt: "u", messages })).toBe(messages);
  });
});

describe("parseToolArguments", () => {
  it("parses the model's JSON object", () => {
    expect(parseToolArguments(call('{"q": "x", "n": [1, 2]}'), 64)).toEqual({ ok: true, value: { q: "x", n: [1, 2] } });
  });

  it("takes empty arguments as an empty object", () => {
    expect(parseToolArguments(call("  "), 64)).toEqual({ ok: true, value: {} });
  });

  it("says what is wrong with text that is not JSON, an array, or too deep, without throwing", () => {
    expect(parseToolArguments(call('{"q": '), 64)).toMatchObject({ ok: false, message: expect.stringContaining("not valid JSON") });
    expect(parseToolArguments(call("[1]"), 64)).toEqual({ ok: false, message: "the arguments of lookup must be a JSON object" });
    expect(parseToolArguments(call(`{"a":${"[".repeat(70)}${"]".repeat(70)}}`), 64)).toMatchObject({ ok: false, message: expect.stringContaining("deeper than 64") });
  });
});

describe("toolDefinitionProblem", () => {
  it("accepts names the chat APIs accept and object schemas", () => {
    expect(toolDefinitionProblem({ name: "get_weather-2", description: "", parameters: { type: "object" } })).toBeNull();
  });

  it("refuses names with spaces or dots, and parameters that are not an object schema", () => {
    expect(toolDefinitionProblem({ name: "get weather", description: "", parameters: {} })).toContain("must be 1–64");
    expect(toolDefinitionProblem({ name: "a".repeat(65), description: "", parameters: {} })).toContain("must be 1–64");
    expect(toolDefinitionProblem({ name: "list", description: "", parameters: { type: "array" } })).toContain("object schema");
  });
});
