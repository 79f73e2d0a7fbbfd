import { describe, expect, test } from "vitest";
import { mergeWrites, nodeRunId } from "./run-event-batch.js";
import type { EventWrites } from "./run-event-record.js";

const message = (seq: number, runId = "r1"): EventWrites["message"] => ({ runId, seq, type: "WARNING", at: "2026-11-21T10:00:00.000Z", nodeId: null, payload: {} });
const writes = (seq: number, partial: Partial<EventWrites> = {}): EventWrites => ({ message: message(seq), nodeRun: null, run: { lastSeq: seq }, status: null, ...partial });

const g1 = { nodeKey: "g1", invocation: "", nodeType: "generation" };
const v1 = { nodeKey: "v1", invocation: "", nodeType: "validation" };

describe("mergeWrites", () => {
  test("keeps every event in order and applies a node run's and the run's columns as successive updates would", () => {
    const merged = mergeWrites([
      writes(1, { nodeRun: { ...g1, set: { status: "RUNNING", startedAt: null } } }),
      writes(2, { nodeRun: { ...g1, set: { status: "COMPLETED", output: "o" } }, run: { lastSeq: 2, totalTokens: { increment: 5 } } }),
      writes(3, { nodeRun: { ...v1, set: { status: "RUNNING" } }, run: { lastSeq: 3, totalTokens: { increment: 2 } } }),
    ]);
    expect(merged.messages.map((m) => m.seq)).toEqual([1, 2, 3]);
    expect([...merged.nodeRuns.values()]).toEqual([
      { ...g1, set: { status: "COMPLETED", startedAt: null, output: "o" } },
      { ...v1, set: { status: "RUNNING" } },
    ]);
    expect(merged.run).toEqual({ lastSeq: 3, totalTokens: { increment: 7 } });
  });

  test("two invocations of one node are two node runs, each with its own columns", () => {
    const second = { ...g1, invocation: "regen#2" };
    const merged = mergeWrites([
      writes(1, { nodeRun: { ...g1, set: { status: "COMPLETED", output: "first" } } }),
      writes(2, { nodeRun: { ...second, set: { status: "RUNNING" } } }),
      writes(3, { nodeRun: { ...second, set: { status: "COMPLETED", output: "second" } } }),
    ]);
    expect(merged.nodeRuns.get(nodeRunId(g1))?.set).toEqual({ status: "COMPLETED", output: "first" });
    expect(merged.nodeRuns.get(nodeRunId(second))).toEqual({ ...second, set: { status: "COMPLETED", output: "second" } });
  });

  test("a node run keeps the type of its first event: an agent's call started as a tool run stays one when it fails in the same batch", () => {
    const call = { nodeKey: "research", invocation: "research@1.2" };
    const merged = mergeWrites([
      writes(1, { nodeRun: { ...call, nodeType: "tool", set: { status: "RUNNING" } } }),
      writes(2, { nodeRun: { ...call, nodeType: "agent", set: { status: "FAILED" } } }),
    ]);
    expect(merged.nodeRuns.get(nodeRunId(call))).toEqual({ ...call, nodeType: "tool", set: { status: "FAILED" } });
  });

  test("an absolute value replaces earlier increments, and a later increment adds to it", () => {
    const merged = mergeWrites([
      writes(1, { run: { lastSeq: 1, totalTokens: { increment: 5 } } }),
      writes(2, { run: { lastSeq: 2, totalTokens: 20 } }),
      writes(3, { run: { lastSeq: 3, totalTokens: { increment: 1 } } }),
    ]);
    expect(merged.run).toEqual({ lastSeq: 3, totalTokens: 21 });
  });

  test("refuses an empty batch and a batch mixing runs", () => {
    expect(() => mergeWrites([])).toThrow("at least one event");
    expect(() => mergeWrites([writes(1), { ...writes(2), message: message(2, "r2") }])).toThrow("one run");
  });
});
