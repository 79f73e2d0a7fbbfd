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

const nodeTypes = new Map([["g1", "generation"], ["draft", "llm"], ["check", "grade"]]);

describe("eventWrites", () => {
  test("NODE_COMPLETED fills the node run and adds its tokens to the run; the stored payload drops the bulky details", () => {
    const event: RunEvent = { seq: 7, type: "NODE_COMPLETED", runId: "r1", at, nodeId: "g1", description: "d", output: "o", details, invocation: "" };
    const writes = eventWrites(event, nodeTypes);
    expect(writes.nodeRun).toMatchObject({ nodeKey: "g1", invocation: "", nodeType: "generation", set: { status: "COMPLETED", output: "o", rawReply: details.rawReply, retries: 1 } });
    expect(writes.run).toEqual({ lastSeq: 7, promptTokens: { increment: 3 }, completionTokens: { increment: 2 }, totalTokens: { increment: 5 } });
    expect(writes.message).toMatchObject({ seq: 7, nodeId: "g1", payload: { output: "o", details: { model: "echo", retries: 1 } } });
    expect(writes.message.payload["details"]).not.toHaveProperty("renderedPrompt");
    expect(writes.status).toBeNull();
  });

  test("a terminal event sets the final status, totals and result", () => {
    const usage = { promptTokens: 10, completionTokens: 4, totalTokens: 14 };
    const writes = eventWrites({ seq: 9, type: "RUN_COMPLETED", runId: "r1", at, result: "answer", outputs: {}, usage }, nodeTypes);
    expect(writes.run).toMatchObject({ status: "COMPLETED", result: "answer", totalTokens: 14, lastSeq: 9, error: null });
    expect(writes.status).toBe("COMPLETED");
    const failed = eventWrites({ seq: 9, type: "RUN_FAILED", runId: "r1", at, error: { code: "X", message: "m" }, failedNodeIds: ["g1"], outputs: {}, usage }, nodeTypes);
    expect(failed.run).toMatchObject({ status: "FAILED", error: { json: { code: "X", message: "m" } } });
  });

  test("events that change no node or status only advance lastSeq", () => {
    const writes = eventWrites({ seq: 3, type: "WARNING", runId: "r1", at, nodeId: "g1", code: "EMPTY_PLACEHOLDER", message: "m" }, nodeTypes);
    expect(writes).toMatchObject({ nodeRun: null, run: { lastSeq: 3 }, status: null });
  });

  test("node events name the invocation they write: a later loop iteration is its own node run, with the JSON value", () => {
    const event: RunEvent = {
      seq: 12, type: "NODE_COMPLETED", runId: "r1", at, nodeId: "check", description: "graded", output: '{"verdict":"retry"}',
      value: { verdict: "retry" }, details, invocation: "regen#2",
    };
    expect(eventWrites(event, nodeTypes).nodeRun).toMatchObject({
      nodeKey: "check", invocation: "regen#2", nodeType: "grade",
      set: { status: "COMPLETED", output: '{"verdict":"retry"}', value: { json: { verdict: "retry" } } },
    });
    const started = eventWrites({ seq: 11, type: "NODE_STARTED", runId: "r1", at, nodeId: "draft", nodeType: "llm", invocation: "regen#2" }, nodeTypes);
    expect(started.nodeRun).toMatchObject({ nodeKey: "draft", invocation: "regen#2", nodeType: "llm", set: { status: "RUNNING" } });
  });

  test("a node skipped because its branch was not taken says so, and a terminal event stores the final state", () => {
    const skipped = eventWrites({ seq: 5, type: "NODE_SKIPPED", runId: "r1", at, nodeId: "draft", reason: "BRANCH_NOT_TAKEN", blockedBy: null, invocation: "" }, nodeTypes);
    expect(skipped.nodeRun).toMatchObject({
      nodeKey: "draft", nodeType: "llm", set: { status: "SKIPPED", error: { json: { code: "BRANCH_NOT_TAKEN", message: "not run: its branch was not taken" } } },
    });
    const usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
    const done = eventWrites({ seq: 9, type: "RUN_COMPLETED", runId: "r1", at, result: "r", outputs: {}, usage, state: { drafts: ["a", "b"] } }, nodeTypes);
    expect(done.run).toMatchObject({ state: { json: { drafts: ["a", "b"] } } });
    expect(done.message.payload).toMatchObject({ state: { drafts: ["a", "b"] } });
  });

  test("an event naming a node its workflow lacks is a programming error", () => {
    expect(() => eventWrites({ seq: 5, type: "NODE_SKIPPED", runId: "r1", at, nodeId: "ghost", reason: "UPSTREAM_FAILED", blockedBy: "g1", invocation: "" }, nodeTypes)).toThrow("ghost");
  });
});
