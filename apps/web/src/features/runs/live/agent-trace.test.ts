import { describe, expect, it } from "vitest";
import { agentTrace, callIdOf, parseCallInvocation, priceOf } from "./agent-trace";
import { liveEvent } from "./live-event.test-helpers";
import { projectRun, type LiveEvent } from "./run-projection";

let seq = 0;
const event = (type: string, payload: Record<string, unknown>, nodeId = "research"): LiveEvent => {
  seq += 1;
  return liveEvent(seq, type, payload, nodeId, new Date(Date.UTC(2026, 10, 27, 17, 0, seq)).toISOString());
};
const usage = (total: number) => ({ promptTokens: total - 2, completionTokens: 2, totalTokens: total });

/**
 *   question ──▶ research (agent) ──▶ answer
 *                  step 1: lookup(sky) ‖ lookup({bad)      (two calls at once; the second fails)
 *                  step 2: final answer
 */
function twoStepAgent(invocation = ""): LiveEvent[] {
  const call = (n: number) => `${invocation ? `${invocation}/` : ""}research@1.${n}`;
  return [
    event("NODE_STARTED", { invocation }),
    event("AGENT_STEP", { invocation, step: 1, text: "Let me look.", finishReason: "tool_calls", usage: usage(12), calls: [{ callId: "call_1_1", tool: "lookup", arguments: "{\"q\": \"sky\"}" }, { callId: "call_1_2", tool: "lookup", arguments: "{bad" }] }),
    event("TOOL_CALLED", { invocation: call(1), callId: "call_1_1", tool: "lookup", arguments: { q: "sky" } }),
    event("NODE_STARTED", { invocation: call(1) }),
    event("TOOL_CALLED", { invocation: call(2), callId: "call_1_2", tool: "lookup", arguments: "{bad" }),
    event("NODE_STARTED", { invocation: call(2) }),
    event("TOOL_RESULT", { invocation: call(2), callId: "call_1_2", tool: "lookup", ok: false, summary: "TOOL_ARGUMENTS_INVALID: not a JSON object" }),
    event("NODE_FAILED", { invocation: call(2), error: { code: "TOOL_ARGUMENTS_INVALID", message: "not a JSON object" } }),
    event("TOOL_RESULT", { invocation: call(1), callId: "call_1_1", tool: "lookup", ok: true, summary: "\"blue\"" }),
    event("NODE_COMPLETED", { invocation: call(1), output: "blue" }),
    event("AGENT_STEP", { invocation, step: 2, text: "The sky is blue.", finishReason: "stop", usage: usage(20), calls: [] }),
    event("NODE_COMPLETED", { invocation, output: "The sky is blue." }),
  ];
}

describe("agent trace", () => {
  it("lists each step with its reply and tokens, and each call with its arguments and result or error, in order", () => {
    const steps = agentTrace(twoStepAgent(), "research", "");
    expect(steps.map((step) => [step.step, step.text, step.finishReason, step.usage?.totalTokens])).toEqual([
      [1, "Let me look.", "tool_calls", 12],
      [2, "The sky is blue.", "stop", 20],
    ]);
    expect(steps[0]!.calls).toEqual([
      { callId: "call_1_1", tool: "lookup", invocation: "research@1.1", arguments: { q: "sky" }, status: "ok", summary: "\"blue\"" },
      { callId: "call_1_2", tool: "lookup", invocation: "research@1.2", arguments: "{bad", status: "failed", summary: "TOOL_ARGUMENTS_INVALID: not a JSON object" },
    ]);
    expect(steps[1]!.calls).toEqual([]);
  });

  it("shows a call the model asked for as not started until its TOOL_CALLED, then running until its result", () => {
    const events = twoStepAgent();
    expect(agentTrace(events.slice(0, 2), "research", "")[0]!.calls.map((call) => [call.status, call.arguments])).toEqual([
      ["waiting", "{\"q\": \"sky\"}"],
      ["waiting", "{bad"],
    ]);
    expect(agentTrace(events.slice(0, 4), "research", "")[0]!.calls.map((call) => call.status)).toEqual(["running", "waiting"]);
  });

  it("keeps an agent's executions apart: the steps of a loop's second iteration are not the first's", () => {
    const events = [...twoStepAgent(), ...twoStepAgent("regen#2")];
    const second = agentTrace(events, "research", "regen#2");
    expect(second).toHaveLength(2);
    expect(second[0]!.calls.map((call) => call.invocation)).toEqual(["regen#2/research@1.1", "regen#2/research@1.2"]);
    expect(agentTrace(events, "research", "")[0]!.calls.map((call) => call.invocation)).toEqual(["research@1.1", "research@1.2"]);
    expect(agentTrace(events, "other", "")).toEqual([]);
  });

  it("shows a step its resumed run recorded again once, keeping what its calls did", () => {
    const events = twoStepAgent();
    const replayed = event("AGENT_STEP", { invocation: "", step: 1, text: "Let me look.", finishReason: "tool_calls", usage: usage(12), calls: [{ callId: "call_1_1", tool: "lookup", arguments: "{}" }, { callId: "call_1_2", tool: "lookup", arguments: "{bad" }] });
    const steps = agentTrace([...events.slice(0, 10), replayed], "research", "");
    expect(steps).toHaveLength(1);
    expect(steps[0]!.calls.map((call) => call.status)).toEqual(["ok", "failed"]);
  });

  it("reads a call's agent, step and position from its invocation, and its call id from its TOOL_CALLED", () => {
    expect(parseCallInvocation("regen#2/research@3.2")).toEqual({ parent: "regen#2", agentId: "research", step: 3, index: 2 });
    expect(parseCallInvocation("research@1.1")).toEqual({ parent: "", agentId: "research", step: 1, index: 1 });
    expect(parseCallInvocation("regen#2")).toBeNull();
    expect(parseCallInvocation("perQuestion[1]")).toBeNull();
    expect(callIdOf(twoStepAgent(), "research", "research@1.2")).toBe("call_1_2");
    expect(callIdOf(twoStepAgent(), "research", "research@9.9")).toBeNull();
  });

  it("leaves the agent's own state to the agent while its calls run and end", () => {
    const events = twoStepAgent();
    const midway = projectRun(events.slice(0, 10));
    expect(midway.nodes.research).toMatchObject({ status: "RUNNING", invocation: "" });
    expect(midway.calls["research@research@1.1"]).toMatchObject({ status: "COMPLETED", invocation: "research@1.1", output: "blue" });
    expect(midway.calls["research@research@1.2"]).toMatchObject({ status: "FAILED", error: { code: "TOOL_ARGUMENTS_INVALID" } });
    expect(projectRun(events).nodes.research).toMatchObject({ status: "COMPLETED", output: "The sky is blue." });
  });

  it("finds a model's prices only when both are configured", () => {
    const providers = [{ id: "local", models: [{ id: "small", inputUsdPerMTok: 0.15, outputUsdPerMTok: 0.6 }, { id: "half", inputUsdPerMTok: 1, outputUsdPerMTok: null }] }];
    expect(priceOf(providers, "local", "small")).toEqual({ inputUsdPerMTok: 0.15, outputUsdPerMTok: 0.6 });
    expect(priceOf(providers, "local", "half")).toBeNull();
    expect(priceOf(providers, "offline", "scripted")).toBeNull();
    expect(priceOf(providers, null, null)).toBeNull();
  });
});
