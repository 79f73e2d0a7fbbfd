import { describe, expect, it } from "vitest";
import { checkNodeConfig, configDocument, readNodeDocument } from "../document/node-config.check.js";
import type { Violation } from "../model/violation.js";
import { builtInRegistry } from "../node-types/built-in-node-types.js";
import { pipeline } from "../testing/pipeline-builder.js";
import { checkAddEdge, checkEdit } from "./edit-rules.js";

const registry = builtInRegistry;
const codes = (violations: Violation[]) => violations.map((violation) => violation.code);

/**
 *  q ─► draft ─► check ─[pass]─► out       (loop regen declared, no loop edge yet)
 */
function unlooped() {
  return pipeline()
    .input("q")
    .model("draft", "llm", ["x"])
    .model("check", "grade", [])
    .output("out")
    .edges("q>draft", "draft>check", "check.pass>out")
    .loop("regen", 3, "pass")
    .build();
}

describe("edit-time rules for SPEC-V2 edits", () => {
  it("allows a loop edge from a grader's retry port back to the draft", () => {
    expect(checkAddEdge(unlooped(), "check", "draft", { registry, sourcePort: "retry", loop: "regen" })).toEqual([]);
  });

  it("refuses a loop edge naming an undeclared loop, from a port the node lacks, or leaving a non-router", () => {
    expect(codes(checkAddEdge(unlooped(), "check", "draft", { registry, sourcePort: "retry", loop: "again" }))).toEqual(["LOOP_NOT_DECLARED"]);
    expect(codes(checkAddEdge(unlooped(), "check", "draft", { registry, sourcePort: "redo", loop: "regen" }))).toEqual(["PORT_UNKNOWN"]);
    expect(codes(checkAddEdge(unlooped(), "draft", "q", { registry, loop: "regen" }))).toEqual(["LOOP_UNCONDITIONAL", "INPUT_HAS_PRE"]);
  });

  it("refuses a data edge back up the graph: loops must use loop edges", () => {
    const violations = checkAddEdge(unlooped(), "check", "draft", { registry, sourcePort: "retry" });
    expect(codes(violations)).toEqual(["CYCLE"]);
  });

  it("refuses a data edge that would enter a loop's body past its header", () => {
    //  q ─► draft ─► fix ─► check ─[retry, loop]─► draft ;  adding q ─► fix enters the body sideways
    const workflow = pipeline()
      .input("q")
      .model("draft", "llm", ["x"])
      .node("fix", "join")
      .model("check", "grade", [])
      .output("out")
      .edges("q>draft", "draft>fix", "fix>check", "check.pass>out")
      .loop("regen", 3)
      .loopEdge("check.retry>draft", "regen")
      .build();
    expect(codes(checkAddEdge(workflow, "q", "fix", { registry }))).toEqual(["LOOP_NOT_REDUCIBLE"]);
  });

  it("refuses a node update whose condition does not compile or whose channel is undeclared", () => {
    const workflow = pipeline().input("q").node("route", "switch", { cases: [{ port: "a", when: "true" }] }).output("out").edges("q>route", "route.a>out").build();
    const broken = { id: "route", type: "switch", config: { cases: [{ port: "a", when: "input ==" }], writes: "seen" } };
    expect(codes(checkEdit(workflow, { kind: "updateNode", nodeId: "route", node: broken }, { registry }))).toEqual(["STATE_UNKNOWN_CHANNEL", "EXPRESSION_INVALID"]);
    const renamed = { id: "route", type: "switch", config: { cases: [{ port: "b", when: "true" }] } };
    expect(codes(checkEdit(workflow, { kind: "updateNode", nodeId: "route", node: renamed }, { registry }))).toEqual(["PORT_UNKNOWN"]);
  });

  it("refuses settings that drop a loop still in use or give it a bad bound, and allows the rest", () => {
    const looped = unlooped();
    looped.edges.push({ id: "back", source: "check", sourcePort: "retry", target: "draft", loop: "regen" });
    expect(codes(checkEdit(looped, { kind: "updateSettings", loops: [] }, { registry }))).toEqual(["LOOP_NOT_DECLARED"]);
    expect(codes(checkEdit(looped, { kind: "updateSettings", loops: [{ id: "regen", max: 0, exit: null }] }, { registry }))).toEqual(["LOOP_BOUND_INVALID"]);
    expect(checkEdit(looped, { kind: "updateSettings", loops: [{ id: "regen", max: 5, exit: "fail" }], state: { notes: { reducer: "append" } } }, { registry })).toEqual([]);
  });

  it("does not refuse an edit for what the graph already broke before it", () => {
    const workflow = unlooped();
    workflow.loops = [{ id: "regen", max: 0, exit: null }];
    expect(checkAddEdge(workflow, "check", "draft", { registry, sourcePort: "retry", loop: "regen" })).toEqual([]);
  });
});

describe("checkNodeConfig", () => {
  it("checks a node's config as the document parser does, at the node's own paths", () => {
    expect(checkNodeConfig({ id: "m", type: "map", config: { concurrency: 0, body: { nodes: [{ id: "x", type: "nope" }], edges: [] } } }, { registry: builtInRegistry })).toEqual([
      { code: "FIELD_INVALID", path: "concurrency", message: "Too small: expected number to be >=1" },
      { code: "UNKNOWN_NODE_TYPE", path: "body.nodes[0].type", message: expect.stringContaining('unknown node type "nope"') },
    ]);
    expect(checkNodeConfig({ id: "t", type: "template", config: { template: "{input}", json: true } }, { registry: builtInRegistry })).toEqual([]);
    expect(checkNodeConfig({ id: "i", type: "input", content: "x", config: { cases: [] } }, { registry: builtInRegistry })).toEqual([
      { code: "FIELD_UNKNOWN", path: "cases", message: 'input nodes take no "cases"' },
    ]);
  });
});

describe("readNodeDocument and configDocument", () => {
  /** perItem (map): item ─► say ─► done, the body's template flat on its node as a document writes it */
  const written = {
    id: "perItem",
    type: "map",
    items: "input",
    body: {
      nodes: [{ id: "item", type: "input" }, { id: "say", type: "template", template: "{item}!" }, { id: "done", type: "output" }],
      edges: [{ id: "e1", source: "item", target: "say" }, { id: "e2", source: "say", target: "done" }],
    },
  };

  it("reads a node written as a document into the model, bodies' fields gathered into their config, and writes it back", () => {
    const { node, issues } = readNodeDocument(written, { registry: builtInRegistry });
    expect(issues).toEqual([]);
    const body = node?.config?.["body"] as { nodes: { id: string; config?: unknown }[] };
    expect(body.nodes.find((inner) => inner.id === "say")?.config).toEqual({ template: "{item}!" });
    const { id: _id, type: _type, ...config } = written;
    expect(configDocument(node!)).toEqual(config);
    expect(configDocument({ id: "in", type: "input", content: "x" })).toBeNull();
  });

  it("reports what the parser reports, at the node's own paths", () => {
    expect(readNodeDocument({ ...written, concurrency: "many" }, { registry: builtInRegistry }).issues).toEqual([
      { code: "FIELD_INVALID", path: "concurrency", message: expect.stringContaining("expected number") },
    ]);
  });
});
