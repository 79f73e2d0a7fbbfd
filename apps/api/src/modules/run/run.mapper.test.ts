import { describe, expect, it } from "vitest";
import type { RunEventMessage } from "../../pubsub.js";
import { toRunEventObject } from "./run.mapper.js";

const message = (type: RunEventMessage["type"], payload: Record<string, unknown>, nodeId: string | null = null): RunEventMessage => ({
  runId: "r1",
  seq: 1,
  type,
  at: "2026-11-27T10:00:00.000Z",
  nodeId,
  payload,
});

describe("run events as GraphQL objects", () => {
  it("lifts the nodes a run starts with", () => {
    expect(toRunEventObject(message("RUN_STARTED", { nodeIds: ["in", "g1", "out"] }))).toMatchObject({ nodeIds: ["in", "g1", "out"], reason: null, code: null });
  });

  it("lifts a warning's code and message", () => {
    const event = toRunEventObject(message("WARNING", { code: "EMPTY_PLACEHOLDER", message: "{context} is empty" }, "g1"));
    expect(event).toMatchObject({ nodeId: "g1", code: "EMPTY_PLACEHOLDER", text: "{context} is empty", nodeIds: null });
  });

  it("lifts why a node was skipped and why a run was cancelled", () => {
    expect(toRunEventObject(message("NODE_SKIPPED", { reason: "UPSTREAM_FAILED" }, "out")).reason).toBe("UPSTREAM_FAILED");
    expect(toRunEventObject(message("RUN_CANCELLED", { reason: "cancelled by a client" })).reason).toBe("cancelled by a client");
  });

  it("lifts the attempt that resumed a run", () => {
    expect(toRunEventObject(message("RUN_RESUMED", { attempt: 2 })).attempt).toBe(2);
  });

  it("leaves fields empty that the event type does not carry, whatever its payload holds", () => {
    const event = toRunEventObject(message("NODE_COMPLETED", { nodeIds: ["x"], code: "X", reason: "Y", output: "done", attempt: 3 }, "g1"));
    expect(event).toMatchObject({ nodeIds: null, code: null, reason: null, output: "done", attempt: null });
  });
});
