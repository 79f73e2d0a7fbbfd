import { describe, expect, it } from "vitest";
import { BAND_COLUMNS, LAYOUT_GAP, layeredLayout, needsLayout } from "./layered-layout";

describe("laying out a graph that carries no positions", () => {
  //   a ──▶ c ──▶ d
  //   b ──▶ c
  it("puts nodes in columns by their longest path and rows in order", () => {
    const positions = layeredLayout(
      [{ id: "a" }, { id: "b" }, { id: "c" }, { id: "d" }],
      [
        { source: "a", target: "c" },
        { source: "b", target: "c" },
        { source: "c", target: "d" },
      ],
      { x: 100, y: 50 },
    );
    expect(Object.fromEntries(positions)).toEqual({ a: { x: 0, y: 0 }, b: { x: 0, y: 50 }, c: { x: 100, y: 0 }, d: { x: 200, y: 0 } });
  });

  //   header ──▶ body ──▶ check ─ ─loop─ ─▶ header
  it("leaves loop edges out, so a loop does not push its header right", () => {
    const positions = layeredLayout([{ id: "header" }, { id: "body" }, { id: "check" }], [
      { source: "header", target: "body" },
      { source: "body", target: "check" },
      { source: "check", target: "header", loop: "regen" },
    ]);
    expect(positions.get("header")?.x).toBe(0);
    expect(positions.get("check")?.x).toBe(2 * LAYOUT_GAP.x);
  });

  it("wraps a long chain into bands stacked top to bottom", () => {
    const nodes = Array.from({ length: BAND_COLUMNS + 2 }, (_, i) => ({ id: `n${i}` }));
    const edges = nodes.slice(1).map((node, i) => ({ source: `n${i}`, target: node.id }));
    const positions = layeredLayout(nodes, edges, { x: 100, y: 50 });
    expect(positions.get(`n${BAND_COLUMNS}`)).toEqual({ x: 0, y: 75 });
    expect(positions.get(`n${BAND_COLUMNS + 1}`)).toEqual({ x: 100, y: 75 });
  });

  it("knows a graph has no layout when its nodes all sit on one spot", () => {
    expect(needsLayout([{ id: "a", position: { x: 0, y: 0 } }, { id: "b", position: { x: 0, y: 0 } }])).toBe(true);
    expect(needsLayout([{ id: "a" }, { id: "b" }])).toBe(true);
    expect(needsLayout([{ id: "a", position: { x: 0, y: 0 } }, { id: "b", position: { x: 10, y: 0 } }])).toBe(false);
  });
});
