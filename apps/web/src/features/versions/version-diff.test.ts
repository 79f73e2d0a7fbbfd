import { describe, expect, it } from "vitest";
import { diffGraph, type GraphSide } from "./version-diff";

const at = (x: number) => ({ x, y: 0 });

describe("two versions drawn as one graph", () => {
  //   version 1:  in ──▶ gen ──▶ out
  //   version 2:  in ──▶ gen ──▶ check ──▶ out      (gen's model changed, `in` moved, gen → out gone)
  const from: GraphSide = {
    nodes: [
      { id: "in", type: "input", position: at(0) },
      { id: "gen", type: "generation", provider: "offline", model: "echo", position: at(200) },
      { id: "out", type: "output", position: at(400) },
    ],
    edges: [
      { id: "e1", source: "in", target: "gen" },
      { id: "e2", source: "gen", target: "out" },
    ],
  };
  const to: GraphSide = {
    nodes: [
      { id: "in", type: "input", position: at(-40) },
      { id: "gen", type: "generation", provider: "offline", model: "upper", position: at(200) },
      { id: "out", type: "output", position: at(600) },
      { id: "check", type: "validation", provider: "offline", model: "echo", position: at(400) },
    ],
    edges: [
      { id: "e1", source: "in", target: "gen" },
      { id: "e3", source: "gen", target: "check" },
      { id: "e4", source: "check", target: "out" },
    ],
  };
  const comparison = {
    nodes: {
      added: ["check"],
      removed: [],
      changed: [
        { id: "in", fields: [{ field: "position.x", from: 0, to: -40 }] },
        { id: "gen", fields: [{ field: "model", from: "echo", to: "upper" }] },
        { id: "out", fields: [{ field: "position.x", from: 400, to: 600 }] },
      ],
    },
    edges: { added: ["e3", "e4"], removed: ["e2"], changed: [] },
  };

  it("marks each node added, changed, moved or the same, where the later version has it", () => {
    const diff = diffGraph(from, to, comparison);
    expect(diff.nodes.map((node) => [node.id, node.status, node.position.x])).toEqual([
      ["in", "moved", -40],
      ["gen", "changed", 200],
      ["out", "moved", 600],
      ["check", "added", 400],
    ]);
    expect(diff.nodes.find((node) => node.id === "gen")).toMatchObject({ label: "offline / upper", fields: [{ field: "model", from: "echo", to: "upper" }] });
  });

  it("keeps what the later version lost, marked removed, where the earlier one had it", () => {
    //   version 1:  in ──▶ gen ──▶ out          version 2:  in ──▶ out
    const shrunk: GraphSide = { nodes: [from.nodes[0]!, from.nodes[2]!], edges: [{ id: "e5", source: "in", target: "out" }] };
    const diff = diffGraph(from, shrunk, { nodes: { added: [], removed: ["gen"], changed: [] }, edges: { added: ["e5"], removed: ["e1", "e2"], changed: [] } });
    expect(diff.nodes.map((node) => [node.id, node.status])).toEqual([
      ["in", "same"],
      ["out", "same"],
      ["gen", "removed"],
    ]);
    expect(diff.edges.map((edge) => [edge.id, edge.status])).toEqual([
      ["e5", "added"],
      ["e1", "removed"],
      ["e2", "removed"],
    ]);
  });
});
