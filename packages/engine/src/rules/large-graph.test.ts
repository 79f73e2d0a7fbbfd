import { describe, expect, it } from "vitest";
import type { WorkflowEdge, WorkflowGraph, WorkflowNode } from "../model/workflow.js";
import { checkAddEdge } from "./edit-rules.js";
import { validateWorkflow } from "./validate-workflow.js";
import { builtInRegistry } from "../node-types/built-in-node-types.js";

/** i ─► g ─► v lanes fanned into one ensemble, then two validations and the output: 10,000 nodes. */
function fanIn(lanes: number): WorkflowGraph {
  const nodes: WorkflowNode[] = [{ id: "e", type: "ensemble" }];
  const edges: WorkflowEdge[] = [];
  const link = (source: string, target: string) => edges.push({ id: `x${edges.length + 1}`, source, target });
  for (let k = 0; k < lanes; k += 1) {
    nodes.push({ id: `i${k}`, type: "input" }, { id: `g${k}`, type: "generation" }, { id: `v${k}`, type: "validation" });
    link(`i${k}`, `g${k}`);
    link(`g${k}`, `v${k}`);
    link(`v${k}`, "e");
  }
  nodes.push({ id: "va", type: "validation" }, { id: "vb", type: "validation" }, { id: "o", type: "output" });
  link("e", "va");
  link("va", "vb");
  link("vb", "o");
  return { nodes, edges };
}

/** i ─► e ─► v1 ─► … ─► vN ─► e (one long cycle), plus i2 ─► o. */
function longCycle(length: number): WorkflowGraph {
  const nodes: WorkflowNode[] = [
    { id: "i", type: "input" },
    { id: "e", type: "ensemble" },
    { id: "i2", type: "input" },
    { id: "o", type: "output" },
  ];
  const edges: WorkflowEdge[] = [
    { id: "in", source: "i", target: "e" },
    { id: "out", source: "i2", target: "o" },
  ];
  let previous = "e";
  for (let k = 1; k < length; k += 1) {
    nodes.push({ id: `v${k}`, type: "validation" });
    edges.push({ id: `c${k}`, source: previous, target: `v${k}` });
    previous = `v${k}`;
  }
  edges.push({ id: "back", source: previous, target: "e" });
  return { nodes, edges };
}

describe("whole-graph validation of large graphs", () => {
  it("accepts a valid 10,000-node fan-in graph", () => {
    // i0 ─► g0 ─► v0 ─┐
    // …               ├─► e ─► va ─► vb ─► o
    // i3331 ─► … ─► v3331 ─┘
    const g = fanIn(3332);
    expect(g.nodes).toHaveLength(10_000);
    expect(validateWorkflow(g, { registry: builtInRegistry })).toEqual([]);
  });

  it("reports one cycle through 9,999 nodes with all its nodes and edges, without deep recursion", () => {
    // i ─► e ─► v1 ─► v2 ─► … ─► v9998
    //      ▲───────────────────────┘       i2 ─► o
    const g = longCycle(9_999);
    const violations = validateWorkflow(g, { registry: builtInRegistry });
    expect(violations.map((v) => v.code)).toEqual(["CYCLE"]);
    expect(violations[0]?.nodeIds).toHaveLength(9_999);
    expect(new Set(violations[0]?.edgeIds)).toEqual(new Set(g.edges.filter((e) => e.id !== "in" && e.id !== "out").map((e) => e.id)));
    expect(violations[0]?.message).toContain("(9999 nodes in all)");
  });

  it("finds a cycle-closing edge across a 10,000-node chain", () => {
    // i ─► e ─► v1 ─► … ─► v9998      i2 ─► o
    //      ▲ ─ ─ ─ ─ ─ ─ ─ ─ ─ ─ ┘  (would-be edge v9998 ─► e)
    const g = longCycle(9_999);
    g.edges = g.edges.filter((edge) => edge.id !== "back");
    const violations = checkAddEdge(g, "v9998", "e", { registry: builtInRegistry });
    expect(violations.map((v) => v.code)).toEqual(["CYCLE"]);
    expect(violations[0]?.nodeIds).toHaveLength(9_999);
  });
});
