import { describe, expect, it } from "vitest";
import { autoLayout, estimatedCardSize, needsLayout, overlapping, type AutoLayoutEdge, type AutoLayoutNode } from "./auto-layout";

const card = (id: string, ports: readonly string[] = ["out"]): AutoLayoutNode => ({ id, ports, ...estimatedCardSize(ports) });
const boxes = (nodes: readonly AutoLayoutNode[], positions: Map<string, { x: number; y: number }>) =>
  nodes.map((node) => ({ id: node.id, width: node.width, height: node.height, ...positions.get(node.id)! }));

describe("autoLayout", () => {
  it("lays a chain out left to right", async () => {
    //   question ─▶ draft ─▶ answer
    const nodes = [card("question"), card("draft"), card("answer", [])];
    const positions = await autoLayout(nodes, [
      { source: "question", target: "draft" },
      { source: "draft", target: "answer" },
    ]);
    const x = (id: string) => positions.get(id)!.x;
    expect(x("question")).toBeLessThan(x("draft"));
    expect(x("draft")).toBeLessThan(x("answer"));
  });

  it("keeps a router's targets in the order of its ports, and no two cards overlap", async () => {
    //                 ┌─ yes ─────▶ first
    //   in ─▶ route ──┼─ no ──────▶ second
    //                 └─ default ─▶ third
    const nodes = [card("in"), card("route", ["yes", "no", "default"]), card("third"), card("first"), card("second")];
    const edges: AutoLayoutEdge[] = [
      { source: "in", target: "route" },
      { source: "route", sourcePort: "default", target: "third" },
      { source: "route", sourcePort: "yes", target: "first" },
      { source: "route", sourcePort: "no", target: "second" },
    ];
    const positions = await autoLayout(nodes, edges);
    const y = (id: string) => positions.get(id)!.y;
    expect(y("first")).toBeLessThan(y("second"));
    expect(y("second")).toBeLessThan(y("third"));
    expect(overlapping(boxes(nodes, positions))).toEqual([]);
  });

  it("leaves loop edges out, so the loop's header stays left of the router that goes back to it", async () => {
    //   in ─▶ retrieve ─▶ judge ─ pass ─▶ out
    //            ▲          │
    //            └── retry ─┘ (loop edge)
    const nodes = [card("in"), card("retrieve"), card("judge", ["pass", "retry", "default"]), card("out", [])];
    const positions = await autoLayout(nodes, [
      { source: "in", target: "retrieve" },
      { source: "retrieve", target: "judge" },
      { source: "judge", sourcePort: "pass", target: "out" },
      { source: "judge", sourcePort: "retry", target: "retrieve", loop: "again" },
    ]);
    expect(positions.get("retrieve")!.x).toBeLessThan(positions.get("judge")!.x);
    expect(positions.get("judge")!.x).toBeLessThan(positions.get("out")!.x);
  });

  it("places unconnected nodes and ignores edges to nodes or ports it does not know", async () => {
    const nodes = [card("a"), card("b"), card("lonely")];
    const positions = await autoLayout(nodes, [
      { source: "a", target: "b" },
      { source: "a", target: "ghost" },
      { source: "a", sourcePort: "nope", target: "b" },
    ]);
    expect([...positions.keys()].sort()).toEqual(["a", "b", "lonely"]);
    expect(overlapping(boxes(nodes, positions))).toEqual([]);
  });
});

describe("overlapping", () => {
  it("names each pair of boxes that overlap, and not boxes that only touch", () => {
    const box = (id: string, x: number, y: number) => ({ id, x, y, width: 10, height: 10 });
    expect(overlapping([box("a", 0, 0), box("b", 5, 5), box("c", 10, 0)])).toEqual([
      ["a", "b"],
      ["b", "c"],
    ]);
  });
});

describe("needsLayout", () => {
  it("knows a graph has no layout when its nodes all sit on one spot or have no position", () => {
    expect(needsLayout([{ position: { x: 0, y: 0 } }, { position: { x: 0, y: 0 } }])).toBe(true);
    expect(needsLayout([{}, { position: null }])).toBe(true);
    expect(needsLayout([{ position: { x: 0, y: 0 } }, { position: { x: 10, y: 0 } }])).toBe(false);
  });
});
