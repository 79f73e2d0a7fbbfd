import { describe, expect, it } from "vitest";
import { drawnWithoutPositions, snapshotGraphOf } from "./run-snapshot";

describe("the graph a run executed", () => {
  //   in ──▶ gen ──▶ out
  const run = {
    nodes: [
      { id: "in", type: "input", provider: null, model: null, position: { x: 0, y: 40 } },
      { id: "gen", type: "generation", provider: "offline", model: "echo", position: { x: 200, y: 40 } },
      { id: "out", type: "output", provider: null, model: null, position: { x: 400, y: 40 } },
    ],
    edges: [
      { id: "e1", source: "in", target: "gen" },
      { id: "e2", source: "gen", target: "out" },
      { id: "e3", source: "gen", target: "ghost" },
    ],
  };

  it("keeps nodes and edges as executed, with the model as the node's label, and drops edges to unknown nodes", () => {
    const graph = snapshotGraphOf(run);
    expect(graph.nodes.map((n) => [n.id, n.type, n.label])).toEqual([
      ["in", "input", null],
      ["gen", "generation", "offline / echo"],
      ["out", "output", null],
    ]);
    expect(graph.edges.map((e) => e.id)).toEqual(["e1", "e2"]);
  });

  it("draws a graph at its own positions, and lays it out when a node has none or all share one spot", () => {
    expect(drawnWithoutPositions(snapshotGraphOf(run))).toBe(false);
    const unplaced = { ...run, nodes: run.nodes.map((node) => (node.id === "gen" ? { ...node, position: null } : node)) };
    expect(drawnWithoutPositions(snapshotGraphOf(unplaced))).toBe(true);
    const stacked = { ...run, nodes: run.nodes.map((node) => ({ ...node, position: { x: 0, y: 0 } })) };
    expect(drawnWithoutPositions(snapshotGraphOf(stacked))).toBe(true);
  });
});
