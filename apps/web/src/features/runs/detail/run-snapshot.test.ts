import { describe, expect, it } from "vitest";
import { layeredPositions, readSnapshotGraph, readSnapshotName } from "./run-snapshot";

describe("run snapshot graph", () => {
  //   in ──▶ gen ──▶ out
  const snapshot = {
    name: "demo",
    nodes: [
      { id: "in", type: "input", content: "hi", position: { x: 0, y: 40 } },
      { id: "gen", type: "generation", provider: "offline", model: "echo" },
      { id: "out", type: "output" },
    ],
    edges: [
      { id: "e1", source: "in", target: "gen" },
      { id: "e2", source: "gen", target: "out" },
    ],
  };

  it("reads nodes and edges as executed, with the model as the node's label", () => {
    const graph = readSnapshotGraph(snapshot);
    expect(graph.nodes.map((n) => [n.id, n.type, n.label])).toEqual([
      ["in", "input", null],
      ["gen", "generation", "offline / echo"],
      ["out", "output", null],
    ]);
    expect(graph.edges.map((e) => e.id)).toEqual(["e1", "e2"]);
  });

  it("finds the graph under a nested key and drops edges to unknown nodes", () => {
    const graph = readSnapshotGraph({ graph: { nodes: snapshot.nodes, edges: [...snapshot.edges, { source: "gen", target: "ghost" }] } });
    expect(graph.edges).toHaveLength(2);
  });

  it("reads the workflow's name as it was when the run started", () => {
    expect(readSnapshotName({ version: 1, workflow: snapshot })).toBe("demo");
    expect(readSnapshotName({})).toBeNull();
  });

  it("returns an empty graph for a snapshot it cannot read", () => {
    expect(readSnapshotGraph(null)).toEqual({ nodes: [], edges: [] });
    expect(readSnapshotGraph({ nodes: "nope" })).toEqual({ nodes: [], edges: [] });
    expect(readSnapshotGraph({ nodes: [{ id: 3 }, { id: "x", type: "input" }] }).nodes).toHaveLength(1);
  });

  //   a ──▶ c ──▶ d
  //   b ──▶ c
  it("lays nodes without positions out in columns by depth and keeps given positions", () => {
    const graph = readSnapshotGraph({
      nodes: [
        { id: "a", type: "input" },
        { id: "b", type: "input" },
        { id: "c", type: "ensemble" },
        { id: "d", type: "output", position: { x: 999, y: 5 } },
      ],
      edges: [
        { source: "a", target: "c" },
        { source: "b", target: "c" },
        { source: "c", target: "d" },
      ],
    });
    const positions = layeredPositions(graph, { x: 100, y: 50 });
    expect(positions.get("a")).toEqual({ x: 0, y: 0 });
    expect(positions.get("b")).toEqual({ x: 0, y: 50 });
    expect(positions.get("c")).toEqual({ x: 100, y: 0 });
    expect(positions.get("d")).toEqual({ x: 999, y: 5 });
  });
});
