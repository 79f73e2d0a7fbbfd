import { emptyNode } from "../live/live-state";
import { describe, expect, it } from "vitest";
import type { NodeLiveState } from "../live/run-projection";
import { buildRunView, latestRowOf, type NodeRecordTimes } from "./run-view";
import type { SnapshotGraph } from "./run-snapshot";

//   in ──▶ gen ──▶ val ──▶ out
const graph: SnapshotGraph = {
  nodes: [
    { id: "out", type: "output", label: null, position: null },
    { id: "in", type: "input", label: null, position: null },
    { id: "val", type: "validation", label: null, position: null },
    { id: "gen", type: "generation", label: null, position: null },
  ],
  edges: [],
};
const at = (s: number) => new Date(Date.UTC(2026, 10, 21, 10, 0, s)).toISOString();
const liveNode = (status: NodeLiveState["status"], startedAt: string | null = null): NodeLiveState => ({
  ...emptyNode(),
  status,
  description: null,
  tokens: "",
  output: null,
  error: null,
  startedAt,
  finishedAt: null,
});

describe("run view", () => {
  it("prefers the live status over the stored one and orders the timeline by start", () => {
    const records: NodeRecordTimes[] = [
      { nodeId: "in", invocation: "", status: "COMPLETED", startedAt: at(0), finishedAt: at(1) },
      { nodeId: "gen", invocation: "", status: "PENDING" },
    ];
    const view = buildRunView(graph, { gen: liveNode("RUNNING", at(2)) }, records, null);
    expect(view.statuses).toEqual({ out: "PENDING", in: "COMPLETED", val: "PENDING", gen: "RUNNING" });
    expect(view.rows.map((r) => r.id)).toEqual(["in", "gen", "out", "val"]);
    expect(view.rows[1]).toMatchObject({ startedAt: at(2), finishedAt: null });
  });

  it("focuses the user's choice, else a failed node, else a running one", () => {
    const live = { gen: liveNode("FAILED"), val: liveNode("RUNNING") };
    expect(buildRunView(graph, live, [], null).focus).toBe("gen");
    expect(buildRunView(graph, { val: liveNode("RUNNING") }, [], null).focus).toBe("val");
    expect(buildRunView(graph, live, [], "in").focus).toBe("in");
    expect(buildRunView(graph, {}, [], "ghost").focus).toBeNull();
  });

  //   in ──▶ gen ──▶ val ──retry (loop regen)──▶ gen
  it("gives each execution of a node its own row, in the order they started", () => {
    const records: NodeRecordTimes[] = [
      { nodeId: "in", invocation: "", status: "COMPLETED", startedAt: at(0), finishedAt: at(1) },
      { nodeId: "gen", invocation: "", status: "COMPLETED", startedAt: at(1), finishedAt: at(2) },
      { nodeId: "val", invocation: "", status: "COMPLETED", startedAt: at(2), finishedAt: at(3) },
      { nodeId: "gen", invocation: "regen#2", status: "COMPLETED", startedAt: at(3), finishedAt: at(4) },
    ];
    const view = buildRunView(graph, { val: { ...liveNode("RUNNING", at(4)), invocation: "regen#2" } }, records, "gen");
    expect(view.rows.map((r) => r.id)).toEqual(["in", "gen", "val", "gen@regen#2", "val@regen#2", "out"]);
    expect(view.rows.find((r) => r.id === "val@regen#2")).toMatchObject({ status: "RUNNING", invocation: "regen#2" });
    expect(view.focus).toBe("gen");
    // A node chosen on the graph shows its latest execution.
    expect(latestRowOf(view.rows, "gen")).toBe("gen@regen#2");
    expect(latestRowOf(view.rows, "out")).toBe("out");
  });

  //   in ──▶ gen (agent) ──▶ out        gen's step 1 asks for two tool calls: gen@1.1, gen@1.2
  it("gives an agent's tool calls rows of their own, live before they are stored, and keeps the agent's card for the agent", () => {
    const records: NodeRecordTimes[] = [
      { nodeId: "in", invocation: "", status: "COMPLETED", startedAt: at(0), finishedAt: at(1) },
      { nodeId: "gen", invocation: "gen@1.1", status: "COMPLETED", startedAt: at(3), finishedAt: at(4) },
    ];
    const calls = {
      "gen@gen@1.1": { ...liveNode("COMPLETED", at(3)), invocation: "gen@1.1" },
      "gen@gen@1.2": { ...liveNode("RUNNING", at(4)), invocation: "gen@1.2" },
    };
    const view = buildRunView(graph, { gen: liveNode("RUNNING", at(2)) }, records, null, calls);
    expect(view.rows.map((r) => [r.id, r.type, r.status])).toEqual([
      ["in", "input", "COMPLETED"],
      ["gen", "generation", "RUNNING"],
      ["gen@gen@1.1", "tool", "COMPLETED"],
      ["gen@gen@1.2", "tool", "RUNNING"],
      ["out", "output", "PENDING"],
      ["val", "validation", "PENDING"],
    ]);
    expect(view.statuses.gen).toBe("RUNNING");
    // The agent's card opens the agent, not its latest call.
    expect(latestRowOf(view.rows, "gen")).toBe("gen");
  });
});
