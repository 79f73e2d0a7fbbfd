import { describe, expect, it } from "vitest";
import type { NodeLiveState } from "../live/run-projection";
import { buildRunView, type NodeRecordTimes } from "./run-view";
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
    const records = new Map<string, NodeRecordTimes>([
      ["in", { status: "COMPLETED", startedAt: at(0), finishedAt: at(1) }],
      ["gen", { status: "PENDING" }],
    ]);
    const view = buildRunView(graph, { gen: liveNode("RUNNING", at(2)) }, records, null);
    expect(view.statuses).toEqual({ out: "PENDING", in: "COMPLETED", val: "PENDING", gen: "RUNNING" });
    expect(view.rows.map((r) => r.id)).toEqual(["in", "gen", "out", "val"]);
    expect(view.rows[1]).toMatchObject({ startedAt: at(2), finishedAt: null });
  });

  it("focuses the user's choice, else a failed node, else a running one", () => {
    const live = { gen: liveNode("FAILED"), val: liveNode("RUNNING") };
    expect(buildRunView(graph, live, new Map(), null).focus).toBe("gen");
    expect(buildRunView(graph, { val: liveNode("RUNNING") }, new Map(), null).focus).toBe("val");
    expect(buildRunView(graph, live, new Map(), "in").focus).toBe("in");
    expect(buildRunView(graph, {}, new Map(), "ghost").focus).toBeNull();
  });
});
