import { describe, expect, it } from "vitest";
import type { RuleCode } from "../model/violation.js";
import type { Workflow } from "../model/workflow.js";
import { builtInRegistry } from "../node-types/built-in-node-types.js";
import { body, pipeline } from "../testing/pipeline-builder.js";
import { checkAddEdge } from "./edit-rules.js";
import { validateWorkflow } from "./validate-workflow.js";

const check = (workflow: Workflow) => validateWorkflow(workflow, { registry: builtInRegistry });
const codes = (workflow: Workflow): RuleCode[] => check(workflow).map((violation) => violation.code);
const only = (workflow: Workflow, code: RuleCode) => check(workflow).filter((violation) => violation.code === code);

/**
 *  q ─► route ─[short]──► a ─► j ─► out
 *          └──[long]───► b ─┘
 */
function routed(cases = [{ port: "short", when: "size(input) < 20" }, { port: "long", when: "true" }]) {
  return pipeline()
    .input("q")
    .node("route", "switch", { cases })
    .model("a", "llm", ["A"])
    .model("b", "llm", ["B"])
    .node("j", "join")
    .output("out")
    .edges("q>route", "route.short>a", "route.long>b", "a>j", "b>j", "j>out");
}

/** q ─► each (map: bin ─► bt ─► bout) ─► out */
function mapped(bodyGraph = pipeline().input("bin").node("bt", "template", { template: "{item}" }).output("bout").edges("bin>bt", "bt>bout"), config = {}) {
  return pipeline()
    .input("q")
    .node("each", "map", { items: "[1, 2, 3]", body: body(bodyGraph), ...config })
    .output("out")
    .edges("q>each", "each>out");
}

describe("the port rules of SPEC-V2 §5", () => {
  it("accepts a switch whose case ports are connected and whose default is not", () => {
    expect(codes(routed().build())).toEqual([]);
  });

  it("reports PORT_UNKNOWN for an edge from a port the router does not have", () => {
    const workflow = routed().build();
    workflow.edges[1] = { ...workflow.edges[1]!, sourcePort: "tiny" };
    expect(only(workflow, "PORT_UNKNOWN")).toEqual([
      {
        code: "PORT_UNKNOWN",
        message: 'edge "route.short>a" leaves port "tiny" of switch node "route", which has ports "short", "long", "default"',
        nodeIds: ["route", "a"],
        edgeIds: ["route.short>a"],
      },
    ]);
    expect(codes(routed().build())).not.toContain("PORT_UNKNOWN");
  });

  it("reports PORT_UNKNOWN for a port on a node that only has out", () => {
    const workflow = routed().build();
    workflow.edges[3] = { ...workflow.edges[3]!, sourcePort: "yes" };
    expect(only(workflow, "PORT_UNKNOWN")[0]?.nodeIds).toEqual(["a", "j"]);
  });

  it("reports BRANCH_UNCONNECTED for a case port with no edge", () => {
    const workflow = routed([{ port: "short", when: "true" }, { port: "long", when: "true" }, { port: "huge", when: "false" }]).build();
    expect(only(workflow, "BRANCH_UNCONNECTED")).toEqual([
      expect.objectContaining({ nodeIds: ["route"], message: expect.stringContaining('has no edge from port "huge"') }),
    ]);
  });
});

describe("the state rules of SPEC-V2 §5", () => {
  it("reports STATE_UNKNOWN_CHANNEL for a write and a {state.x} read of an undeclared channel", () => {
    const workflow = routed().state({ notes: { reducer: "append" } }).build();
    workflow.nodes[2] = { ...workflow.nodes[2]!, config: { writes: "answer" }, prompt: "{state.notes} {state.memo}" };
    expect(only(workflow, "STATE_UNKNOWN_CHANNEL").map((violation) => [violation.field, violation.nodeIds])).toEqual([
      ["writes", ["a"]],
      ["prompt", ["a"]],
    ]);
  });

  it("accepts declared channels", () => {
    const workflow = routed().state({ answer: { reducer: "replace" } }).build();
    workflow.nodes[2] = { ...workflow.nodes[2]!, config: { writes: "answer" }, prompt: "{state.answer}" };
    expect(codes(workflow)).toEqual([]);
  });

  /**
   *  q ─► a ─► j ─► out        a and b run at the same time and both replace "answer"
   *  q ─► b ─┘
   */
  it("reports STATE_WRITE_CONFLICT for two writers of a replace channel that can run at the same time", () => {
    const workflow = pipeline()
      .input("q")
      .model("a", "llm", ["A"], { writes: "answer" })
      .model("b", "llm", ["B"], { writes: "answer" })
      .node("j", "join")
      .output("out")
      .edges("q>a", "q>b", "a>j", "b>j", "j>out")
      .state({ answer: { reducer: "replace" } })
      .build();
    expect(only(workflow, "STATE_WRITE_CONFLICT")).toEqual([expect.objectContaining({ nodeIds: ["a", "b"] })]);
    workflow.state = { answer: { reducer: "append" } };
    expect(codes(workflow)).toEqual([]);
  });

  it("accepts writers one after the other, and writers on different ports of one switch", () => {
    const chain = pipeline()
      .input("q")
      .model("a", "llm", ["A"], { writes: "answer" })
      .model("b", "llm", ["B"], { writes: "answer" })
      .output("out")
      .edges("q>a", "a>b", "b>out")
      .state({ answer: { reducer: "replace" } })
      .build();
    expect(codes(chain)).toEqual([]);
    const branches = routed().state({ answer: { reducer: "replace" } }).build();
    branches.nodes[2] = { ...branches.nodes[2]!, config: { writes: "answer" } };
    branches.nodes[3] = { ...branches.nodes[3]!, config: { writes: "answer" } };
    expect(codes(branches)).toEqual([]);
    branches.nodes[1] = { ...branches.nodes[1]!, config: { ...branches.nodes[1]!.config, mode: "all" } };
    expect(codes(branches)).toEqual(["STATE_WRITE_CONFLICT"]);
  });

  it("reports a map body that replaces a channel from several items at once, and accepts one item at a time", () => {
    const writer = pipeline().input("bin").node("bt", "template", { template: "{item}", writes: "last" }).output("bout").edges("bin>bt", "bt>bout");
    const parallel = mapped(writer, { concurrency: 2 }).state({ last: { reducer: "replace" } }).build();
    expect(only(parallel, "STATE_WRITE_CONFLICT")).toEqual([expect.objectContaining({ nodeIds: ["each"] })]);
    expect(codes(mapped(writer, { concurrency: 1 }).state({ last: { reducer: "replace" } }).build())).toEqual([]);
  });
});

describe("bodies, budget and expressions (SPEC-V2 §5)", () => {
  it("accepts a map whose body is one input → … → one output", () => {
    expect(codes(mapped().build())).toEqual([]);
  });

  it("reports MAP_BODY_INVALID for a body with two outputs, and for a missing body", () => {
    const twoOutputs = pipeline().input("bin").node("bt", "template", { template: "x" }).output("bout").output("bout2").edges("bin>bt", "bt>bout");
    expect(only(mapped(twoOutputs).build(), "MAP_BODY_INVALID")[0]?.message).toBe(
      'the body of map node "each" must have exactly one input node and one output node; it has 1 input ("bin") and 2 outputs ("bout", "bout2")',
    );
    const missing = pipeline().input("q").node("sub", "subgraph").output("out").edges("q>sub", "sub>out").build();
    expect(only(missing, "MAP_BODY_INVALID")[0]?.message).toBe('subgraph node "sub" has no body graph');
  });

  it("lists a body's own violations with the body's path", () => {
    const cyclic = pipeline().input("bin").node("t1", "template", { template: "x" }).node("t2", "join").output("bout").edges("bin>t2", "t2>t1", "t1>t2", "t1>bout");
    const workflow = pipeline().input("q").node("sub", "subgraph", { body: body(cyclic) }).output("out").edges("q>sub", "sub>out").build();
    expect(check(workflow)).toEqual([expect.objectContaining({ code: "CYCLE", path: ["sub"], nodeIds: expect.arrayContaining(["t1", "t2"]) })]);
  });

  it("reports RUN_BUDGET_EXCEEDED when loops × map items could exceed the limit, and accepts a raised limit", () => {
    //  each: 100 items × 3 body nodes, inside a loop of up to 5 iterations
    const workflow = mapped(undefined, { maxItems: 100 }).build();
    workflow.loops = [{ id: "again", max: 5, exit: null }];
    workflow.nodes.splice(2, 0, { id: "check", type: "grade", provider: "offline", model: "scripted" });
    workflow.edges = [
      { id: "a", source: "q", target: "each" },
      { id: "b", source: "each", target: "check" },
      { id: "c", source: "check", sourcePort: "pass", target: "out" },
      { id: "d", source: "check", sourcePort: "retry", target: "each", loop: "again" },
    ];
    const [violation] = only(workflow, "RUN_BUDGET_EXCEEDED");
    expect(violation?.message).toBe(
      "a run could need up to 1512 node invocations (loop maxima × map maxItems), more than the limit of 1000; lower a loop's max or a map's maxItems, or raise limits.maxInvocations",
    );
    workflow.limits = { maxInvocations: 1512 };
    expect(codes(workflow)).toEqual([]);
  });

  it("never refuses a graph without loops or maps for its size: the default budget is at least one invocation per node", () => {
    const builder = pipeline().input("q");
    let previous = "q";
    for (let k = 0; k < 1500; k += 1) {
      builder.node(`t${k}`, "template", { template: "{input}" }).edges(`${previous}>t${k}`);
      previous = `t${k}`;
    }
    expect(codes(builder.output("out").edges(`${previous}>out`).build())).toEqual([]);
  });

  it("reports EXPRESSION_INVALID with the field and the offset of the error", () => {
    const workflow = routed([{ port: "short", when: "size(input) <" }, { port: "long", when: "inptu" }]).build();
    expect(only(workflow, "EXPRESSION_INVALID").map((violation) => [violation.field, violation.position, violation.message])).toEqual([
      ["cases[0].when", 13, 'cases[0].when of switch node "route" does not compile: Unexpected token: EOF (at character 14)'],
      ["cases[1].when", 0, 'cases[1].when of switch node "route" does not compile: Unknown variable: inptu (at character 1)'],
    ]);
  });

  it("lets item and index appear only inside a map body", () => {
    const outside = routed([{ port: "short", when: "index == 0" }, { port: "long", when: "true" }]).build();
    expect(codes(outside)).toEqual(["EXPRESSION_INVALID"]);
    const inner = pipeline()
      .input("bin")
      .node("pick", "switch", { cases: [{ port: "first", when: "index == 0 && item != null" }] })
      .node("bt", "template", { template: "{item}" })
      .output("bout")
      .edges("bin>pick", "pick.first>bt", "pick.default>bt", "bt>bout");
    expect(codes(mapped(inner).build())).toEqual([]);
  });

  it("returns every violation of a graph that breaks several v2 rules at once", () => {
    const workflow = routed([{ port: "short", when: "size(" }, { port: "long", when: "true" }, { port: "x", when: "true" }]).build();
    workflow.edges.push({ id: "bad", source: "a", target: "route", loop: "nope" }, { id: "odd", source: "route", sourcePort: "y", target: "b" });
    expect(codes(workflow)).toEqual(["PORT_UNKNOWN", "BRANCH_UNCONNECTED", "LOOP_UNCONDITIONAL", "LOOP_NOT_DECLARED", "EXPRESSION_INVALID"]);
  });
});

describe("root causes with ports", () => {
  /*
   *  q ─► route ─[short]──► out
   *          └──[long]───► out      two ports into one output node
   */
  const twoPortsIntoOut = () =>
    pipeline()
      .input("q")
      .node("route", "switch", { cases: [{ port: "short", when: "size(input) < 20" }, { port: "long", when: "true" }] })
      .output("out")
      .edges("q>route", "route.short>out", "route.long>out")
      .build();

  it("counts edges from two ports of one router as two pre-nodes: they are not duplicates", () => {
    expect(codes(twoPortsIntoOut())).toEqual(["MULTIPLE_PRE"]);
  });

  it("reports a repeated edge from the same port as DUPLICATE_EDGE only", () => {
    const workflow = routed().edges("route.short>a").build();
    expect(codes(workflow)).toEqual(["DUPLICATE_EDGE"]);
  });

  it("per edit: a second port to the same node is no DUPLICATE_EDGE, the same port again is nothing else", () => {
    const graph = routed().build();
    expect(checkAddEdge(graph, "route", "a", { registry: builtInRegistry, sourcePort: "short" }).map((violation) => violation.code)).toEqual(["DUPLICATE_EDGE"]);
    expect(checkAddEdge(graph, "route", "a", { registry: builtInRegistry, sourcePort: "long" }).map((violation) => violation.code)).not.toContain("DUPLICATE_EDGE");
  });
});
