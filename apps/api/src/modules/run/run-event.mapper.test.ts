import { describe, expect, it } from "vitest";
import type { RunEventMessage } from "../../pubsub.js";
import { toRunEventView } from "./run-event.mapper.js";
import { EVENT_OBJECT_NAMES, eventObjectName } from "./run-event.type.js";

const message = (type: RunEventMessage["type"], payload: Record<string, unknown>, nodeId: string | null = null): RunEventMessage => ({
  runId: "r1",
  seq: 1,
  type,
  at: "2026-11-27T10:00:00.000Z",
  nodeId,
  payload,
});

describe("run events' deprecated lifted fields", () => {
  it("lift the nodes a run starts with", () => {
    expect(toRunEventView(message("RUN_STARTED", { nodeIds: ["in", "g1", "out"] }))).toMatchObject({ nodeIds: ["in", "g1", "out"], reason: null, code: null });
  });

  it("lift a warning's code and message", () => {
    const event = toRunEventView(message("WARNING", { code: "EMPTY_PLACEHOLDER", message: "{context} is empty" }, "g1"));
    expect(event).toMatchObject({ nodeId: "g1", code: "EMPTY_PLACEHOLDER", text: "{context} is empty", nodeIds: null });
  });

  it("lift why a node was skipped and why a run was cancelled", () => {
    expect(toRunEventView(message("NODE_SKIPPED", { reason: "UPSTREAM_FAILED" }, "out")).reason).toBe("UPSTREAM_FAILED");
    expect(toRunEventView(message("RUN_CANCELLED", { reason: "cancelled by a client" })).reason).toBe("cancelled by a client");
  });

  it("lift the attempt that resumed a run, and a run's result as output", () => {
    expect(toRunEventView(message("RUN_RESUMED", { attempt: 2 })).attempt).toBe(2);
    expect(toRunEventView(message("RUN_COMPLETED", { result: "the answer", outputs: {}, usage: {} })).output).toBe("the answer");
  });

  it("stay empty for fields the event type does not carry, whatever its payload holds", () => {
    const event = toRunEventView(message("NODE_COMPLETED", { nodeIds: ["x"], code: "X", reason: "Y", output: "done", attempt: 3 }, "g1"));
    expect(event).toMatchObject({ nodeIds: null, code: null, reason: null, output: "done", attempt: null });
  });
});

describe("run events' own types", () => {
  it("name one object type per event type", () => {
    expect(eventObjectName({ type: "NODE_COMPLETED" })).toBe("NodeCompletedEvent");
    expect(eventObjectName({ type: "MAP_ITEM_COMPLETED" })).toBe("MapItemCompletedEvent");
    expect(eventObjectName({ type: "WARNING" })).toBe("WarningEvent");
    expect(new Set(Object.values(EVENT_OBJECT_NAMES)).size).toBe(Object.keys(EVENT_OBJECT_NAMES).length);
  });

  it("read a node's details and a run's outputs and usage typed, as the events store them", () => {
    // As stored: run-event-record.ts keeps provider, model, usage, retries and the times of a node's details.
    const details = { provider: "offline", model: "echo", usage: { promptTokens: 3, completionTokens: 2, totalTokens: 5 }, retries: 1, startedAt: "2026-11-27T10:00:00.000Z", finishedAt: "2026-11-27T10:00:01.500Z" };
    const completed = toRunEventView(message("NODE_COMPLETED", { nodeId: "g1", invocation: "regen#2", description: "d", output: "o", passed: { q: 1 }, details }, "g1"));
    expect(completed.details).toEqual({ ...details, startedAt: new Date(details.startedAt), finishedAt: new Date(details.finishedAt) });
    expect([completed.invocation, completed.passed]).toEqual(["regen#2", { q: 1 }]);
    // A node closed by the server (its run ended from outside): no model was called yet.
    expect(toRunEventView(message("NODE_FAILED", { error: { code: "RUN_INTERRUPTED", message: "m" }, details: { provider: null, model: null, usage: null, retries: 0, startedAt: null, finishedAt: "2026-11-27T10:00:02.000Z" } }, "g1")).details).toEqual({
      provider: null,
      model: null,
      usage: null,
      retries: 0,
      startedAt: null,
      finishedAt: new Date("2026-11-27T10:00:02.000Z"),
    });
    const failed = toRunEventView(message("RUN_FAILED", { error: { code: "X", message: "m" }, failedNodeIds: ["g1"], outputs: { out: "partial", out2: "more" }, usage: { promptTokens: 3, completionTokens: 2, totalTokens: 5 } }));
    expect([failed.failedNodeIds, failed.outputs, failed.usage]).toEqual([["g1"], [{ nodeId: "out", output: "partial" }, { nodeId: "out2", output: "more" }], { promptTokens: 3, completionTokens: 2, totalTokens: 5 }]);
    expect(toRunEventView(message("WARNING", { code: "PROVIDER_RETRY", message: "429, retrying" })).message).toBe("429, retrying");
    expect(toRunEventView(message("NODE_STARTED", { nodeId: "g1", nodeType: "generation", invocation: "" }, "g1")).nodeType).toBe("generation");
  });
});
