import { describe, expect, it } from "vitest";
import { finishReasonOf, TOOL_CALL_STREAM_LIMITS, ToolCallStream } from "./tool-call-stream.js";

describe("ToolCallStream", () => {
  it("assembles calls streamed in pieces, in index order", () => {
    const stream = new ToolCallStream();
    stream.add([{ index: 1, id: "b", name: "second", arguments: "" }]);
    stream.add([{ index: 0, id: "a", name: "first", arguments: '{"x"' }]);
    stream.add([{ index: 0, arguments: ": 1}" }, { index: 1, arguments: "{}" }]);
    expect(stream.calls("OpenAI")).toEqual([
      { id: "a", name: "first", arguments: '{"x": 1}' },
      { id: "b", name: "second", arguments: "{}" },
    ]);
  });

  it("keeps a name repeated with every piece once, and takes arguments sent as an object", () => {
    const stream = new ToolCallStream();
    stream.add([{ id: "a", name: "lookup", arguments: { q: "x" } }]);
    stream.add([{ index: 0, name: "lookup" }]);
    expect(stream.calls("Mistral")).toEqual([{ id: "a", name: "lookup", arguments: '{"q":"x"}' }]);
  });

  it("refuses a call that never got an id, as a retryable failure", () => {
    const stream = new ToolCallStream();
    stream.add([{ index: 0, name: "lookup", arguments: "{}" }]);
    expect(() => stream.calls("OpenAI")).toThrow(expect.objectContaining({ code: "PROVIDER_UNAVAILABLE", retryable: true }));
  });

  it("ends a stream whose calls or arguments pass its bounds instead of holding them", () => {
    const long = new ToolCallStream();
    const piece = "x".repeat(1024 * 1024);
    const feed = () => {
      for (let k = 0; k <= TOOL_CALL_STREAM_LIMITS.maxArgumentChars / piece.length; k += 1) long.add([{ index: 0, id: "a", name: "lookup", arguments: piece }]);
    };
    expect(feed).toThrow(expect.objectContaining({ code: "PROVIDER_ERROR", retryable: false }));
    const many = new ToolCallStream();
    expect(() => many.add(Array.from({ length: TOOL_CALL_STREAM_LIMITS.maxCalls + 1 }, (_, index) => ({ index, id: `c${index}`, name: "lookup" })))).toThrow(
      expect.objectContaining({ code: "PROVIDER_ERROR" }),
    );
  });
});

describe("finishReasonOf", () => {
  it("maps the vendors' reasons to the engine's", () => {
    expect(finishReasonOf("tool_calls")).toBe("tool_calls");
    expect(finishReasonOf("model_length")).toBe("length");
    expect(finishReasonOf("error")).toBe("other");
    expect(finishReasonOf(null)).toBeUndefined();
  });
});
