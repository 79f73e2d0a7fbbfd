import { describe, expect, it } from "vitest";
import type { WorkflowEdge, WorkflowNode } from "@weft/engine";
import { CLIPBOARD_LIMITS, copySelection, pastedGraph, pasteOffset, readClipboard, renamedId, withFreeBodyIds } from "./graph-clipboard";

const node = (id: string, type = "template", extra: Partial<WorkflowNode> = {}): WorkflowNode => ({ id, type, position: { x: 100, y: 50 }, ...extra });

//   question ─▶ route ─ yes ─▶ answer       (route, answer copied with the loop edge back, and its loop)
//                 ▲─── again ──┘
const graph = {
  loops: [
    { id: "again", max: 3, exit: "no" },
    { id: "other", max: 2, exit: null },
  ],
  nodes: [node("question", "input"), node("route", "switch", { config: { cases: [{ port: "yes", when: "true" }] } }), node("answer", "template", { position: { x: 400, y: 50 } })],
  edges: [
    { id: "e1", source: "question", target: "route" },
    { id: "e2", source: "route", target: "answer", sourcePort: "yes" },
    { id: "e3", source: "answer", target: "route", loop: "again" },
  ] satisfies WorkflowEdge[],
};

describe("graph clipboard", () => {
  it("copies the selected nodes with the data and loop edges between them, and the loops those close", () => {
    const clip = copySelection(graph, ["route", "answer"])!;
    expect(clip.nodes.map((n) => n.id)).toEqual(["route", "answer"]);
    expect(clip.edges).toEqual([
      { source: "route", target: "answer", sourcePort: "yes" },
      { source: "answer", target: "route", loop: "again" },
    ]);
    expect(clip.loops).toEqual([{ id: "again", max: 3, exit: "no" }]);
    expect(copySelection(graph, [])).toBeNull();
  });

  it("leaves a loop edge behind when one of its ends is not selected, and its loop with it", () => {
    const clip = copySelection(graph, ["question", "answer"])!;
    expect(clip.edges).toEqual([]);
    expect(clip.loops).toBeUndefined();
  });

  it("pastes a loop under a new id with its bound and exit, the loop edge naming it", () => {
    const clip = readClipboard(JSON.stringify(copySelection(graph, ["route", "answer"])))!;
    const pasted = pastedGraph(clip, new Set(["question", "route", "answer"]), { x: 40, y: 40 }, new Set(["again", "other"]));
    expect(pasted.loops).toEqual([{ id: "again-2", max: 3, exit: "no" }]);
    expect(pasted.edges).toEqual([
      { source: "route-2", target: "answer-2", sourcePort: "yes" },
      { source: "answer-2", target: "route-2", loop: "again-2" },
    ]);
    // Into a workflow without that loop: a new id all the same, so a paste never joins a loop already there.
    expect(pastedGraph(clip, new Set(), { x: 0, y: 0 }).loops.map((loop) => loop.id)).toEqual(["again-2"]);
  });

  it("reads loops back only when they are well formed, and drops loop edges whose loop is missing", () => {
    const text = (loops: unknown[]) =>
      JSON.stringify({ format: "weft.clipboard/v1", nodes: [node("a"), node("b")], edges: [{ source: "a", target: "b" }, { source: "b", target: "a", loop: "back" }], loops });
    expect(readClipboard(text([{ id: "back", max: 2, exit: null }]))!.edges).toEqual([
      { source: "a", target: "b" },
      { source: "b", target: "a", loop: "back" },
    ]);
    for (const bad of [{ id: "back", max: 0 }, { id: "back", max: 101 }, { id: "back", max: 2, exit: 7 }, { max: 2 }, "back"]) {
      const read = readClipboard(text([bad]))!;
      expect(read.edges).toEqual([{ source: "a", target: "b" }]);
      expect(read.loops).toBeUndefined();
    }
    expect(readClipboard(text([]))!.edges).toEqual([{ source: "a", target: "b" }]);
  });

  it("reads back only its own format, within its limits", () => {
    const clip = copySelection(graph, ["route", "answer"])!;
    expect(readClipboard(JSON.stringify(clip))).toEqual(clip);
    expect(readClipboard("hello")).toBeNull();
    expect(readClipboard('{"format":"weft.clipboard/v1","nodes":"x","edges":[]}')).toBeNull();
    const many = { ...clip, nodes: Array.from({ length: CLIPBOARD_LIMITS.maxNodes + 1 }, (_, k) => node(`n${k}`)) };
    expect(readClipboard(JSON.stringify(many))).toBeNull();
  });

  it("renames every pasted id, bodies included, and the edges follow", () => {
    const map = node("perItem", "map", {
      config: { items: "input", body: { nodes: [{ id: "item", type: "input" }, { id: "done", type: "output" }], edges: [{ source: "item", target: "done" }] } },
    });
    const clip = copySelection({ nodes: [...graph.nodes, map], edges: graph.edges, loops: graph.loops }, ["route", "answer", "perItem"])!;
    const pasted = pastedGraph(clip, new Set(["question", "route", "answer", "perItem", "item", "done", "answer-2"]), { x: 40, y: 40 });
    expect(pasted.nodes.map((n) => n.id)).toEqual(["route-2", "answer-3", "perItem-2"]);
    expect(pasted.edges).toEqual([
      { source: "route-2", target: "answer-3", sourcePort: "yes" },
      { source: "answer-3", target: "route-2", loop: "again-2" },
    ]);
    expect(pasted.nodes[0]!.position).toEqual({ x: 140, y: 90 });
    expect(pasted.nodes[0]!.config).toEqual({ cases: [{ port: "yes", when: "true" }] });
    const body = pasted.nodes[2]!.config!["body"] as { nodes: { id: string }[]; edges: { source: string; target: string }[] };
    expect(body.nodes.map((n) => n.id)).toEqual(["item-2", "done-2"]);
    expect(body.edges).toEqual([{ source: "item-2", target: "done-2" }]);
  });

  it("names a copy after its original", () => {
    expect(renamedId("retrieve-2", new Set(["retrieve-2"]))).toBe("retrieve-3");
    expect(renamedId("grade", new Set())).toBe("grade-2");
  });

  it("puts a paste beside its originals, or with its top-left where asked", () => {
    const clip = copySelection(graph, ["route", "answer"])!;
    expect(pasteOffset(clip, null)).toEqual({ x: 40, y: 40 });
    expect(pasteOffset(clip, { x: 0, y: 0 })).toEqual({ x: -100, y: -50 });
  });

  it("renames a new node's body ids only where the workflow already uses them", () => {
    const config = { body: { nodes: [{ id: "map_item", type: "input" }, { id: "map_result", type: "output" }], edges: [{ id: "e1", source: "map_item", target: "map_result" }] } };
    expect(withFreeBodyIds(config, new Set(["question"]))).toEqual(config);
    const second = withFreeBodyIds(config, new Set(["map_item", "map_result"])) as typeof config;
    expect(second.body.nodes.map((n) => n.id)).toEqual(["map_item-2", "map_result-2"]);
    expect(second.body.edges).toEqual([{ id: "e1", source: "map_item-2", target: "map_result-2" }]);
    expect(withFreeBodyIds({ template: "{input}" }, new Set())).toEqual({ template: "{input}" });
  });
});
