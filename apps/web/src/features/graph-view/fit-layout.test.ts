import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { overlapping, type AutoLayoutEdge, type AutoLayoutNode } from "./auto-layout";
import { extent, fitLayout, FIT_PADDING, READABLE_ZOOM } from "./fit-layout";

// About the size of a read-only card (graph-view.css) with its type, id and one label line.
const card = (id: string, ports: readonly string[] = ["out"]): AutoLayoutNode => ({ id, ports, width: 150, height: 62 });
const chain = (length: number) => {
  const nodes = Array.from({ length }, (_, i) => card(`n${i}`));
  const edges: AutoLayoutEdge[] = nodes.slice(1).map((node, i) => ({ source: `n${i}`, target: node.id }));
  return { nodes, edges };
};
const boxes = (nodes: readonly AutoLayoutNode[], positions: Map<string, { x: number; y: number }>) =>
  nodes.map((node) => ({ id: node.id, width: node.width, height: node.height, ...positions.get(node.id)! }));
const COMPARISON = { width: 760, height: 440, fold: true };

describe("fitting the layered layout to a read-only canvas", () => {
  //   n0 ─▶ n1 ─▶ n2
  it("keeps a short chain on one row", async () => {
    const { nodes, edges } = chain(3);
    const fitted = await fitLayout(nodes, edges, COMPARISON);
    expect(new Set(nodes.map((node) => fitted.positions.get(node.id)!.y)).size).toBe(1);
    expect(fitted.height).toBe(COMPARISON.height);
    expect(fitted.zoom).toBeGreaterThanOrEqual(READABLE_ZOOM);
  });

  //   n0 ─▶ n1 ─▶ … ─▶ n15, folded into rows
  it("folds a long chain into rows so the whole reads at a readable zoom, cards apart", async () => {
    const { nodes, edges } = chain(16);
    const fitted = await fitLayout(nodes, edges, COMPARISON);
    expect(new Set(nodes.map((node) => fitted.positions.get(node.id)!.y)).size).toBeGreaterThan(1);
    expect(fitted.zoom).toBeGreaterThanOrEqual(READABLE_ZOOM);
    expect(fitted.height).toBe(COMPARISON.height);
    expect(overlapping(boxes(nodes, fitted.positions))).toEqual([]);
  });

  it("keeps a long chain on one row, to pan along, on a canvas that does not fold", async () => {
    const { nodes, edges } = chain(16);
    const fitted = await fitLayout(nodes, edges, { ...COMPARISON, fold: false });
    expect(new Set(nodes.map((node) => fitted.positions.get(node.id)!.y)).size).toBe(1);
    expect(fitted.zoom).toBeLessThan(READABLE_ZOOM);
  });

  it("makes a canvas that may grow only as tall as a readable whole needs", async () => {
    const { nodes, edges } = chain(40);
    const fixed = await fitLayout(nodes, edges, COMPARISON);
    const grown = await fitLayout(nodes, edges, { ...COMPARISON, maxHeight: 1200 });
    expect(fixed.zoom).toBeLessThan(READABLE_ZOOM);
    expect(grown.height).toBeGreaterThan(COMPARISON.height);
    expect(grown.height).toBeLessThanOrEqual(1200);
    expect(grown.zoom).toBeGreaterThan(fixed.zoom);
    const size = extent(nodes, grown.positions);
    // The whole fits the grown canvas at the zoom given.
    expect(size.width * (1 + FIT_PADDING) * grown.zoom).toBeLessThanOrEqual(COMPARISON.width + 0.001);
    expect(size.height * (1 + FIT_PADDING) * grown.zoom).toBeLessThanOrEqual(grown.height + 0.001);
  }, 60_000); // five layouts of 40 nodes: a guard against a hang on a loaded machine, not a speed check

  it("fits the largest shipped template whole at a readable zoom on the comparison's canvas (a 1280×800 window)", async () => {
    const template = JSON.parse(readFileSync(resolve(__dirname, "../../../../../examples/seed-003-parallel-self-rag.json"), "utf8")) as {
      nodes: { id: string }[];
      edges: { source: string; target: string; sourcePort?: string; loop?: string }[];
    };
    const ports = new Map<string, Set<string>>();
    for (const edge of template.edges) ports.set(edge.source, (ports.get(edge.source) ?? new Set()).add(edge.sourcePort ?? "out"));
    // A router's card is taller by a line per port.
    const nodes = template.nodes.map((node) => {
      const own = [...(ports.get(node.id) ?? [])];
      return { ...card(node.id, own), height: 52 + (own.length > 1 ? 14 * own.length : 0) };
    });
    expect(nodes.length).toBeGreaterThanOrEqual(16);
    const fitted = await fitLayout(nodes, template.edges, { width: 1232, height: 440, maxHeight: 640, fold: true });
    expect(fitted.zoom).toBeGreaterThanOrEqual(READABLE_ZOOM);
    expect(overlapping(boxes(nodes, fitted.positions))).toEqual([]);
  });
});
