import { describe, expect, it } from "vitest";
import { liveEvent } from "./live-event.test-helpers";
import { applyRunEvent, initialRunLiveState, isTerminalRunStatus, projectRun, type LiveEvent } from "./run-projection";

let seq = 0;
const event = (type: string, payload: Record<string, unknown> = {}, nodeId: string | null = null): LiveEvent => {
  seq += 1;
  return liveEvent(seq, type, payload, nodeId, new Date(Date.UTC(2026, 10, 21, 10, 0, seq)).toISOString());
};

describe("run projection", () => {
  //   in ──▶ gen ──▶ out
  it("marks each node as its events arrive and ends with the run's result", () => {
    const events = [
      event("RUN_STARTED", { nodeIds: ["in", "gen", "out"] }),
      event("NODE_STARTED", {}, "in"),
      event("NODE_COMPLETED", { description: "hello", output: "hello" }, "in"),
      event("NODE_STARTED", {}, "gen"),
      event("NODE_TOKEN", { text: "{\"desc" }, "gen"),
      event("NODE_TOKEN", { text: "ription\"" }, "gen"),
      event("NODE_DESCRIPTION", { description: "echoed" }, "gen"),
    ];
    const midway = projectRun(events);
    expect(midway.status).toBe("RUNNING");
    expect(midway.nodes.in?.status).toBe("COMPLETED");
    expect(midway.nodes.gen).toMatchObject({ status: "RUNNING", description: "echoed", tokens: "{\"description\"" });
    expect(midway.nodes.out?.status).toBe("PENDING");

    const done = projectRun(
      [
        event("NODE_COMPLETED", { description: "echoed", output: "HELLO" }, "gen"),
        event("NODE_COMPLETED", { description: "HELLO", output: "HELLO" }, "out"),
        event("RUN_COMPLETED", { result: "HELLO" }),
      ],
      midway,
    );
    expect(done.status).toBe("COMPLETED");
    expect(done.result).toBe("HELLO");
    expect(Object.values(done.nodes).every((node) => node.status === "COMPLETED")).toBe(true);
    expect(isTerminalRunStatus(done.status)).toBe(true);
  });

  //   in ──▶ gen ✗ ──▶ out (skipped)
  it("records a node's error, the skipped nodes after it and the run's failure", () => {
    const state = projectRun([
      event("RUN_STARTED", { nodeIds: ["in", "gen", "out"] }),
      event("NODE_FAILED", { nodeId: "gen", error: { code: "PARSE_ERROR", message: "no JSON object" } }),
      event("NODE_SKIPPED", { nodeId: "out", reason: "UPSTREAM_FAILED", blockedBy: "gen" }),
      event("RUN_FAILED", { error: { code: "NODE_FAILED", message: "gen failed" } }),
    ]);
    expect(state.nodes.gen).toMatchObject({ status: "FAILED", error: { code: "PARSE_ERROR", message: "no JSON object" } });
    expect(state.nodes.out?.status).toBe("SKIPPED");
    expect(state.status).toBe("FAILED");
    expect(state.error?.code).toBe("NODE_FAILED");
  });

  //   in ✓ ──▶ gen (its worker stops) … another worker: RUN_RESUMED {attempt 2} ──▶ gen ──▶ out
  it("records when another worker took the run over and runs the interrupted node again", () => {
    const state = projectRun([
      event("RUN_STARTED", { nodeIds: ["in", "gen", "out"] }),
      event("NODE_COMPLETED", { description: "hello", output: "hello" }, "in"),
      event("NODE_STARTED", {}, "gen"),
      event("RUN_RESUMED", { attempt: 2 }),
      event("NODE_STARTED", {}, "gen"),
    ]);
    expect(state.status).toBe("RUNNING");
    expect(state.resumptions).toEqual([{ seq: seq - 1, at: expect.any(String), attempt: 2 }]);
    expect(state.nodes.gen?.status).toBe("RUNNING");
  });

  it("keeps warnings in order with their node", () => {
    const state = projectRun([
      event("WARNING", { nodeId: "gen", code: "EMPTY_PLACEHOLDER", message: "{context} was empty" }),
    ]);
    expect(state.warnings).toEqual([
      expect.objectContaining({ nodeId: "gen", code: "EMPTY_PLACEHOLDER", message: "{context} was empty" }),
    ]);
  });

  it("ignores event types it does not know", () => {
    const start = initialRunLiveState("RUNNING");
    expect(applyRunEvent(start, event("NODE_TELEPORTED", {}, "x"))).toBe(start);
  });

  it("reports a cancelled run as terminal with its reason", () => {
    const state = projectRun([event("RUN_CANCELLED", { reason: "cancelled by user" })]);
    expect(state.status).toBe("CANCELLED");
    expect(state.error?.message).toBe("cancelled by user");
    expect(isTerminalRunStatus("RUNNING")).toBe(false);
  });
});
