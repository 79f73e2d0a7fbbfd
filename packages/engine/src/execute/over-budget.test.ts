import { describe, expect, it } from "vitest";
import { overBudget } from "./over-budget.js";

describe("an event past the run's byte budget", () => {
  it("keeps an agent's step, tool call and result as who called what, without the text, arguments or result", () => {
    const big = "x".repeat(100_000);
    const at = { nodeId: "agent", invocation: "agent" };
    expect(overBudget({ type: "AGENT_STEP", ...at, step: 2, text: big, calls: [{ callId: "c1", tool: "search", arguments: big }], finishReason: "tool_calls", usage: null })).toEqual({
      type: "AGENT_STEP",
      ...at,
      step: 2,
      text: "",
      calls: [{ callId: "c1", tool: "search", arguments: "" }],
      finishReason: "tool_calls",
      usage: null,
    });
    expect(overBudget({ type: "TOOL_CALLED", nodeId: "agent", invocation: "agent@2.1", callId: "c1", tool: "search", arguments: { q: big } })).toMatchObject({ arguments: null, tool: "search" });
    const result = overBudget({ type: "TOOL_RESULT", nodeId: "agent", invocation: "agent@2.1", callId: "c1", tool: "search", ok: true, summary: big });
    expect(result).toMatchObject({ ok: true, tool: "search" });
    expect(JSON.stringify(result).length).toBeLessThan(400);
  });

  it("drops streamed tokens and leaves an event without values as it is", () => {
    expect(overBudget({ type: "NODE_TOKEN", nodeId: "g", invocation: "g", token: "abc" } as never)).toBeNull();
    const started = { type: "NODE_STARTED", nodeId: "g", invocation: "g" } as never;
    expect(overBudget(started)).toBe(started);
  });
});
