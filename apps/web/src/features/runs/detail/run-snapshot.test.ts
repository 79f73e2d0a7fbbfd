import { describe, expect, it } from "vitest";
import { layeredPositions, snapshotGraphOf } from "./run-snapshot";

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

  //   a ──▶ c ──▶ d
  //   b ──▶ c
  it("lays nodes without positions out in columns by depth and keeps given positions", () => {
    const graph = snapshotGraphOf({
      nodes: [
        { id: "a", type: "input" },
        { id: "b", type: "input" },
        { id: "c", type: "ensemble" },
        { id: "d", type: "output", position: { x: 999, y: 5 } },
      ],
      edges: [
        { id: "1", source: "a", target: "c" },
        { id: "2", source: "b", target: "c" },
        { id: "3", source: "c", target: "d" },
      ],
    });
    const positions = layeredPositions(graph, { x: 100, y: 50 });
    expect(positions.get("a")).toEqual({ x: 0, y: 0 });
    expect(positions.get("b")).toEqual({ x: 0, y: 50 });
    expect(positions.get("c")).toEqual({ x: 100, y: 0 });
    expect(positions.get("d")).toEqual({ x: 999, y: 5 });
  });
});
