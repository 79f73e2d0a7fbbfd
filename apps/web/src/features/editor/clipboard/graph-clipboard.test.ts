import { describe, expect, it } from "vitest";
import type { WorkflowEdge, WorkflowNode } from "@weft/engine";
import { CLIPBOARD_LIMITS, copySelection, pastedGraph, pasteOffset, readClipboard, renamedId, withFreeBodyIds } from "./graph-clipboard";

const node = (id: string, type = "template", extra: Partial<WorkflowNode> = {}): WorkflowNode => ({ id, type, position: { x: 100, y: 50 }, ...extra });

//   question ─▶ route ─ yes ─▶ answer       (route, answer copied; the loop edge back is not)
//                 ▲─── again ──┘
const graph = {
  nodes: [node("question", "input"), node("route", "switch", { config: { cases: [{ port: "yes", when: "true" }] } }), node("answer", "template", { position: { x: 400, y: 50 } })],
  edges: [
    { id: "e1", source: "question", target: "route" },
    { id: "e2", source: "route", target: "answer", sourcePort: "yes" },
    { id: "e3", source: "answer", target: "route", loop: "again" },
  ] satisfies WorkflowEdge[],
};

describe("graph clipboard", () => {
  it("copies the selected nodes with the data edges between them only", () => {
    const clip = copySelection(graph, ["route", "answer"])!;
    expect(clip.nodes.map((n) => n.id)).toEqual(["route", "answer"]);
    expect(clip.edges).toEqual([{ source: "route", target: "answer", sourcePort: "yes" }]);
    expect(copySelection(graph, [])).toBeNull();
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
    const clip = copySelection({ nodes: [...graph.nodes, map], edges: graph.edges }, ["route", "answer", "perItem"])!;
    const pasted = pastedGraph(clip, new Set(["question", "route", "answer", "perItem", "item", "done", "answer-2"]), { x: 40, y: 40 });
    expect(pasted.nodes.map((n) => n.id)).toEqual(["route-2", "answer-3", "perItem-2"]);
    expect(pasted.edges).toEqual([{ source: "route-2", target: "answer-3", sourcePort: "yes" }]);
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
