import { describe, expect, it } from "vitest";
import type { WorkflowEdge, WorkflowNode } from "@weft/engine";
import type { ValidatedGraph } from "../rules/edit-registry";
import { copySelection, pastedGraph } from "./graph-clipboard";
import { admitPaste } from "./paste-admission";

const node = (id: string, type: string, extra: Partial<WorkflowNode> = {}): WorkflowNode => ({ id, type, position: { x: 0, y: 0 }, ...extra });
const edge = (id: string, source: string, target: string, extra: Partial<WorkflowEdge> = {}): WorkflowEdge => ({ id, source, target, ...extra });

//   question ─▶ draft ─▶ check ─ pass ─▶ result
//                 ▲        │
//                 └ retry ─┘ (loop edge of `regen`, at most 3, exit pass)
const graph: ValidatedGraph = {
  nodes: [node("question", "input"), node("draft", "template", { config: { template: "{input}" } }), node("check", "grade", { provider: "offline", model: "scripted" }), node("result", "output")],
  edges: [edge("e1", "question", "draft"), edge("e2", "draft", "check"), edge("e3", "check", "result", { sourcePort: "pass" }), edge("e4", "check", "draft", { sourcePort: "retry", loop: "regen" })],
  loops: [{ id: "regen", max: 3, exit: "pass" }],
};

const paste = (selected: string[]) => pastedGraph(copySelection(graph, selected)!, new Set(graph.nodes.map((n) => n.id)), { x: 40, y: 40 }, new Set(["regen"]));

describe("admitting a paste", () => {
  it("keeps a copied loop: the data edge, then the loop edge declaring its renamed loop with the same bound and exit", () => {
    const admitted = admitPaste(graph, paste(["draft", "check"]), false);
    expect(admitted.refusals).toEqual([]);
    expect(admitted.nodes.map((n) => n.id)).toEqual(["draft-2", "check-2"]);
    expect(admitted.edges).toEqual([
      { source: "draft-2", target: "check-2" },
      { source: "check-2", target: "draft-2", sourcePort: "retry", loop: "regen-2" },
    ]);
    expect(admitted.loops).toEqual([{ id: "regen-2", max: 3, exit: "pass" }]);
  });

  it("leaves out a second output node with its edges, and a loop whose edge the rules refuse, and says why", () => {
    const pasted = paste(["draft", "check", "result"]);
    // Without the data edge the loop edge would close no path back to its header.
    const withoutPath = { ...pasted, edges: pasted.edges.filter((e) => e.loop || e.target !== "check-2") };
    const admitted = admitPaste(graph, withoutPath, false);
    expect(admitted.nodes.map((n) => n.id)).toEqual(["draft-2", "check-2"]);
    expect(admitted.edges).toEqual([]);
    expect(admitted.loops).toEqual([]);
    expect(admitted.refusals.map((r) => r.violation.code)).toEqual(["OUTPUT_UNIQUE", "LOOP_NOT_REDUCIBLE"]);
  });

  it("refuses everything while the canvas is locked by a run", () => {
    const admitted = admitPaste(graph, paste(["draft", "check"]), true);
    expect(admitted.nodes).toEqual([]);
    expect(admitted.refusals[0]!.violation.code).toBe("LOCKED_WHILE_RUNNING");
  });
});
