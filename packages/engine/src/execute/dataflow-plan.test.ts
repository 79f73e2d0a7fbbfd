import { describe, expect, it } from "vitest";
import { createBuiltInRegistry } from "../node-types/built-in-node-types.js";
import { workflow } from "../testing/workflow-builder.js";
import { planDataflow } from "./dataflow-plan.js";

const registry = createBuiltInRegistry();

describe("planDataflow", () => {
  /*
   *  a ──> g1 ──┐
   *  b ──> g2 ──┴──> ens ──> out      edges into ens are created g2 first
   */
  it("lists pre-nodes in edge creation order, sources in node order and the output as result node", () => {
    const wf = workflow()
      .input("a")
      .input("b")
      .model("g1", "generation")
      .model("g2", "generation")
      .model("ens", "ensemble")
      .output()
      .edges("a>g1", "b>g2", "g2>ens", "g1>ens", "ens>out")
      .build();
    const plan = planDataflow(wf, registry);
    const ids = (indices: readonly number[]) => indices.map((index) => wf.nodes[index]!.id);
    expect(ids(plan.preds[plan.indexById.get("ens")!]!)).toEqual(["g2", "g1"]);
    expect(ids(plan.succs[plan.indexById.get("a")!]!)).toEqual(["g1"]);
    expect(ids(plan.sources)).toEqual(["a", "b"]);
    expect(wf.nodes[plan.resultNode]!.id).toBe("out");
  });

  /*
   *  in ──> v1 ──> v2 ──> v1   (cycle)
   */
  it("refuses a cycle, naming the nodes on it", () => {
    const wf = workflow()
      .input("in")
      .model("v1", "ensemble")
      .model("v2", "validation")
      .output()
      .edges("in>v1", "v1>v2", "v2>v1", "v2>out")
      .build();
    expect(() => planDataflow(wf, registry)).toThrow(expect.objectContaining({ code: "CYCLE", details: { nodeIds: ["v1", "v2", "out"] } }));
  });

  it("refuses an edge to a missing node, a duplicate node id and an unknown type", () => {
    const dangling = workflow().input("in").edges("in>ghost").build();
    expect(() => planDataflow(dangling, registry)).toThrow(expect.objectContaining({ code: "EDGE_UNKNOWN_NODE" }));
    const duplicate = workflow().input("in").input("in").build();
    expect(() => planDataflow(duplicate, registry)).toThrow(expect.objectContaining({ code: "DUPLICATE_NODE_ID" }));
    const unknown = workflow().model("x", "router").build();
    expect(() => planDataflow(unknown, registry)).toThrow(expect.objectContaining({ code: "UNKNOWN_NODE_TYPE" }));
  });

  it("plans a 10,000-node chain", () => {
    const builder = workflow().input("n0");
    for (let i = 1; i < 10_000; i += 1) builder.model(`n${i}`, "validation").edges(`n${i - 1}>n${i}`);
    const plan = planDataflow(builder.output().edges("n9999>out").build(), registry);
    expect(plan.sources).toEqual([0]);
    expect(plan.preds[10_000]).toEqual([9_999]);
  });
});
