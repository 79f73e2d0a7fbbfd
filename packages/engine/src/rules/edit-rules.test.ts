import { describe, expect, it } from "vitest";
import type { RuleCode } from "../model/violation.js";
import type { Violation } from "../model/violation.js";
import { createNewWorkflow } from "../model/defaults.js";
import { graph } from "../testing/graph-builder.js";
import { canConnect, checkAddEdge, checkAddNode, checkEdit, checkRemoveEdge, checkRemoveNode } from "./edit-rules.js";
import { validateWorkflow } from "./validate-workflow.js";
import { builtInRegistry } from "../node-types/built-in-node-types.js";

const codes = (violations: Violation[]): RuleCode[] => violations.map((v) => v.code);

describe("checkAddEdge", () => {
  it("allows an input to feed a generation node", () => {
    // i1 ─► o1     g1      (add i1 ─► g1)
    expect(checkAddEdge(graph("i1->o1", "g1"), "i1", "g1", { registry: builtInRegistry })).toEqual([]);
    expect(canConnect(graph("i1->o1", "g1"), "i1", "g1", { registry: builtInRegistry })).toBe(true);
  });

  it("refuses INPUT_HAS_PRE: a generation node feeding an input", () => {
    // i1 ─► g1     i2     (add g1 ─► i2)
    const violations = checkAddEdge(graph("i1->g1", "i2"), "g1", "i2", { registry: builtInRegistry });
    expect(violations).toEqual([{ code: "INPUT_HAS_PRE", message: 'input node "i2" takes no pre-node', nodeIds: ["i2"], edgeIds: [] }]);
  });

  it("refuses OUTPUT_HAS_POST: the output feeding a validation node", () => {
    // i1 ─► o1     v1     (add o1 ─► v1)
    expect(codes(checkAddEdge(graph("i1->o1", "v1"), "o1", "v1", { registry: builtInRegistry }))).toEqual(["OUTPUT_HAS_POST"]);
  });

  it("refuses TYPE_PAIR_FORBIDDEN: an ensemble feeding a generation node", () => {
    // i1 ─► e1     g1     (add e1 ─► g1)
    const violations = checkAddEdge(graph("i1->e1", "g1"), "e1", "g1", { registry: builtInRegistry });
    expect(codes(violations)).toEqual(["TYPE_PAIR_FORBIDDEN"]);
    expect(violations[0]?.message).toBe('generation node "g1" takes only input nodes as pre-nodes; "e1" is an ensemble node');
    expect(canConnect(graph("i1->e1", "g1"), "e1", "g1", { registry: builtInRegistry })).toBe(false);
  });

  it("refuses MULTIPLE_PRE: a second pre-node for a validation node", () => {
    // i1 ─► v1     i2     (add i2 ─► v1)
    const violations = checkAddEdge(graph("i1->v1", "i2"), "i2", "v1", { registry: builtInRegistry });
    expect(violations).toEqual([
      {
        code: "MULTIPLE_PRE",
        message: 'validation node "v1" takes at most 1 pre-node and is already fed by "i1"',
        nodeIds: ["v1", "i1"],
        edgeIds: ["i1->v1"],
      },
    ]);
  });

  it("allows a second pre-node for an ensemble node", () => {
    // i1 ─► e1     i2     (add i2 ─► e1)
    expect(checkAddEdge(graph("i1->e1", "i2"), "i2", "e1", { registry: builtInRegistry })).toEqual([]);
  });

  it("refuses MULTIPLE_POST: a second post-node for a generation node", () => {
    // i1 ─► g1 ─► o1     v1     (add g1 ─► v1)
    const violations = checkAddEdge(graph("i1->g1->o1", "v1"), "g1", "v1", { registry: builtInRegistry });
    expect(codes(violations)).toEqual(["MULTIPLE_POST"]);
    expect(violations[0]?.message).toBe('generation node "g1" feeds at most 1 post-node and already feeds "o1"');
  });

  it("allows a second post-node for an input node", () => {
    // i1 ─► o1     g1     (add i1 ─► g1)
    expect(checkAddEdge(graph("i1->o1", "g1"), "i1", "g1", { registry: builtInRegistry })).toEqual([]);
  });

  it("refuses SELF_LOOP", () => {
    // e1     (add e1 ─► e1)
    expect(checkAddEdge(graph("e1"), "e1", "e1", { registry: builtInRegistry })).toEqual([
      { code: "SELF_LOOP", message: 'ensemble node "e1" cannot be connected to itself', nodeIds: ["e1"], edgeIds: [] },
    ]);
  });

  it("refuses DUPLICATE_EDGE, naming the existing edge", () => {
    // i1 ─► e1     (add i1 ─► e1 again)
    const violations = checkAddEdge(graph("i1->e1"), "i1", "e1", { registry: builtInRegistry });
    expect(violations).toEqual([
      {
        code: "DUPLICATE_EDGE",
        message: 'input node "i1" is already connected to ensemble node "e1" (edge "i1->e1")',
        nodeIds: ["i1", "e1"],
        edgeIds: ["i1->e1"],
      },
    ]);
  });

  it("refuses a second edge into a generation node as DUPLICATE_EDGE only, not again as MULTIPLE_PRE", () => {
    // i1 ─► g1 ─► o1     (add i1 ─► g1 again)
    expect(codes(checkAddEdge(graph("i1->g1->o1"), "i1", "g1", { registry: builtInRegistry }))).toEqual(["DUPLICATE_EDGE"]);
  });

  it("refuses a second edge out of a generation node as DUPLICATE_EDGE only, not as MULTIPLE_POST or MULTIPLE_PRE", () => {
    // i1 ─► g1 ─► o1     (add g1 ─► o1 again)
    expect(codes(checkAddEdge(graph("i1->g1->o1"), "g1", "o1", { registry: builtInRegistry }))).toEqual(["DUPLICATE_EDGE"]);
  });

  it("refuses CYCLE: a validation node feeding back into the ensemble upstream of it", () => {
    // i1 ─► e1 ─► v1 ─► v2
    //        ▲ ─ ─ ─ ─ ─┘   (add v2 ─► e1)
    const violations = checkAddEdge(graph("i1->e1->v1->v2"), "v2", "e1", { registry: builtInRegistry });
    expect(violations).toEqual([
      {
        code: "CYCLE",
        message: 'connecting "v2" to "e1" would close a cycle: ensemble "e1" → validation "v1" → validation "v2" → ensemble "e1"',
        nodeIds: ["e1", "v1", "v2"],
        edgeIds: ["e1->v1", "v1->v2"],
      },
    ]);
  });

  it("allows an edge between parallel branches that closes no cycle", () => {
    // i1 ─► e1 ─► v1
    // i2 ─► e2          (add i2 ─► e1: no path e1 ⇝ i2)
    expect(checkAddEdge(graph("i1->e1->v1", "i2->e2"), "i2", "e1", { registry: builtInRegistry })).toEqual([]);
  });

  it("refuses an edge to a node of unknown type", () => {
    // i1     x1     (add i1 ─► x1)
    expect(codes(checkAddEdge(graph("i1", "x1"), "i1", "x1", { registry: builtInRegistry }))).toEqual(["UNKNOWN_NODE_TYPE"]);
  });

  it("throws NODE_NOT_FOUND for an edge to a node the graph lacks", () => {
    // i1     (add i1 ─► zz)
    expect(() => checkAddEdge(graph("i1"), "i1", "zz", { registry: builtInRegistry })).toThrow(expect.objectContaining({ code: "NODE_NOT_FOUND" }));
  });
});

describe("checkAddNode and checkRemoveNode", () => {
  it("refuses OUTPUT_UNIQUE when adding a second output node", () => {
    // i1 ─► o1     (add an output)
    const violations = checkAddNode(graph("i1->o1"), "output", { registry: builtInRegistry });
    expect(violations).toEqual([
      {
        code: "OUTPUT_UNIQUE",
        message: 'cannot add another output node: a workflow needs exactly 1 output node and it has "o1"',
        nodeIds: ["o1"],
        edgeIds: [],
      },
    ]);
  });

  it("allows adding any number of input and model nodes", () => {
    // i1 ─► o1     (add an input, a generation node)
    expect(checkAddNode(graph("i1->o1"), "input", { registry: builtInRegistry })).toEqual([]);
    expect(checkAddNode(graph("i1->o1"), "generation", { registry: builtInRegistry })).toEqual([]);
  });

  it("refuses adding a node of an unknown type", () => {
    expect(codes(checkAddNode(graph("i1->o1"), "router", { registry: builtInRegistry }))).toEqual(["UNKNOWN_NODE_TYPE"]);
  });

  it("refuses OUTPUT_UNIQUE when deleting the output node", () => {
    // i1 ─► o1     (delete o1)
    expect(checkRemoveNode(graph("i1->o1"), "o1", { registry: builtInRegistry })).toEqual([
      {
        code: "OUTPUT_UNIQUE",
        message: 'output node "o1" cannot be deleted: a workflow needs exactly 1 output node',
        nodeIds: ["o1"],
        edgeIds: [],
      },
    ]);
  });

  it("refuses INPUT_REQUIRED when deleting the last input node", () => {
    // i1 ─► o1     (delete i1)
    expect(codes(checkRemoveNode(graph("i1->o1"), "i1", { registry: builtInRegistry }))).toEqual(["INPUT_REQUIRED"]);
  });

  it("allows deleting one of two input nodes", () => {
    // i1 ─► e1 ─► o1
    // i2 ──┘            (delete i2)
    expect(checkRemoveNode(graph("i1->e1->o1", "i2->e1"), "i2", { registry: builtInRegistry })).toEqual([]);
  });

  it("allows deleting a model node even though its neighbours lose an edge", () => {
    // i1 ─► g1 ─► o1     (delete g1: MISSING_PRE/POST are run-time rules)
    expect(checkRemoveNode(graph("i1->g1->o1"), "g1", { registry: builtInRegistry })).toEqual([]);
  });
});

describe("LOCKED_WHILE_RUNNING", () => {
  it("refuses every kind of edit while a run is active", () => {
    // i1 ─► e1 ─► o1     i2
    const g = graph("i1->e1->o1", "i2");
    const locked = { registry: builtInRegistry, locked: true };
    expect(codes(checkAddEdge(g, "i2", "e1", locked))).toEqual(["LOCKED_WHILE_RUNNING"]);
    expect(codes(checkRemoveEdge(g, "i1->e1", locked))).toEqual(["LOCKED_WHILE_RUNNING"]);
    expect(codes(checkAddNode(g, "generation", locked))).toEqual(["LOCKED_WHILE_RUNNING"]);
    expect(codes(checkRemoveNode(g, "i2", locked))).toEqual(["LOCKED_WHILE_RUNNING"]);
    expect(checkEdit(g, { kind: "updateNode", nodeId: "e1" }, locked)).toEqual([
      {
        code: "LOCKED_WHILE_RUNNING",
        message: "the workflow cannot be changed while one of its runs is active",
        nodeIds: ["e1"],
        edgeIds: [],
      },
    ]);
  });

  it("allows the same edits when no run is active", () => {
    // i1 ─► e1 ─► o1     i2
    const g = graph("i1->e1->o1", "i2");
    expect(checkAddEdge(g, "i2", "e1", { registry: builtInRegistry, locked: false })).toEqual([]);
    expect(checkRemoveEdge(g, "i1->e1", { registry: builtInRegistry })).toEqual([]);
    expect(checkEdit(g, { kind: "updateNode", nodeId: "e1" }, { registry: builtInRegistry })).toEqual([]);
  });

  it("lists the rule an edit breaks after the lock", () => {
    // i1 ─► o1     (delete o1 while running)
    expect(codes(checkRemoveNode(graph("i1->o1"), "o1", { registry: builtInRegistry, locked: true }))).toEqual(["LOCKED_WHILE_RUNNING", "OUTPUT_UNIQUE"]);
  });
});

describe("edit checks agree with the whole-graph check", () => {
  it("never allows an edge the whole-graph check would then report with an edit-time code", () => {
    // every ordered pair of i1, g1, e1, v1, v2, o1 on top of i1 ─► e1 ─► v1
    const base = graph("i1->e1->v1", "g1", "v2", "o1");
    const editCodes = new Set<RuleCode>(["INPUT_HAS_PRE", "OUTPUT_HAS_POST", "TYPE_PAIR_FORBIDDEN", "MULTIPLE_PRE", "MULTIPLE_POST", "SELF_LOOP", "DUPLICATE_EDGE", "CYCLE"]);
    for (const source of base.nodes) {
      for (const target of base.nodes) {
        const allowed = checkAddEdge(base, source.id, target.id, { registry: builtInRegistry }).length === 0;
        const after = { nodes: base.nodes, edges: [...base.edges, { id: "new", source: source.id, target: target.id }] };
        const broken = validateWorkflow(after, { registry: builtInRegistry }).some((v) => editCodes.has(v.code));
        expect({ source: source.id, target: target.id, allowed }).toEqual({ source: source.id, target: target.id, allowed: !broken });
      }
    }
  });
});

describe("createNewWorkflow", () => {
  it("starts with one input connected to one output, which passes every rule", () => {
    // input-1 ─► output-1
    const workflow = createNewWorkflow("Untitled");
    expect(workflow.nodes.map((n) => n.type)).toEqual(["input", "output"]);
    expect(workflow.edges).toEqual([{ id: "e1", source: "input-1", target: "output-1" }]);
    expect(validateWorkflow(workflow, { registry: builtInRegistry, models: [] })).toEqual([]);
    expect(Object.keys(workflow.prompts).sort()).toEqual(["ensemble", "generation", "validation"]);
  });
});
