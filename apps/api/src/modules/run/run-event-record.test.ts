import type { NodeRunDetails, RunEvent } from "@weft/engine";
import { describe, expect, test } from "vitest";
import { eventWrites } from "./run-event-record.js";

const at = "2026-11-21T10:00:00.000Z";
const details: NodeRunDetails = {
  inputs: ["in"],
  renderedPrompt: "prompt",
  context: [],
  store: null,
  rawReply: '{"description":"d","output":"o"}',
  provider: "offline",
  model: "echo",
  usage: { promptTokens: 3, completionTokens: 2, totalTokens: 5 },
  retries: 1,
  startedAt: at,
  finishedAt: at,
};

describe("eventWrites", () => {
  test("NODE_COMPLETED fills the node run and adds its tokens to the run; the stored payload drops the bulky details", () => {
    const event: RunEvent = { seq: 7, type: "NODE_COMPLETED", runId: "r1", at, nodeId: "g1", description: "d", output: "o", details, invocation: "" };
    const writes = eventWrites(event);
    expect(writes.nodeRun).toMatchObject({ nodeKey: "g1", set: { status: "COMPLETED", output: "o", rawReply: details.rawReply, retries: 1 } });
    expect(writes.run).toEqual({ lastSeq: 7, promptTokens: { increment: 3 }, completionTokens: { increment: 2 }, totalTokens: { increment: 5 } });
    expect(writes.message).toMatchObject({ seq: 7, nodeId: "g1", payload: { output: "o", details: { model: "echo", retries: 1 } } });
    expect(writes.message.payload["details"]).not.toHaveProperty("renderedPrompt");
    expect(writes.status).toBeNull();
  });

  test("a terminal event sets the final status, totals and result, and releases the workflow lock", () => {
    const usage = { promptTokens: 10, completionTokens: 4, totalTokens: 14 };
    const writes = eventWrites({ seq: 9, type: "RUN_COMPLETED", runId: "r1", at, result: "answer", outputs: {}, usage });
    expect(writes.run).toMatchObject({ status: "COMPLETED", result: "answer", totalTokens: 14, lastSeq: 9, error: null });
    expect(writes.status).toBe("COMPLETED");
    const failed = eventWrites({ seq: 9, type: "RUN_FAILED", runId: "r1", at, error: { code: "X", message: "m" }, failedNodeIds: ["g1"], outputs: {}, usage });
    expect(failed.run).toMatchObject({ status: "FAILED", error: { json: { code: "X", message: "m" } } });
  });

  test("events that change no node or status only advance lastSeq", () => {
    const writes = eventWrites({ seq: 3, type: "WARNING", runId: "r1", at, nodeId: "g1", code: "EMPTY_PLACEHOLDER", message: "m" });
    expect(writes).toMatchObject({ nodeRun: null, run: { lastSeq: 3 }, status: null });
  });
});
