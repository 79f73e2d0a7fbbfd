import { describe, expect, it } from "vitest";
import type { RuleCode } from "../model/violation.js";
import type { WorkflowGraph } from "../model/workflow.js";
import { graph } from "../testing/graph-builder.js";
import { validateWorkflow } from "./validate-workflow.js";
import { builtInRegistry } from "../node-types/built-in-node-types.js";

const models = [{ provider: "offline", model: "echo" }];
const codes = (g: WorkflowGraph): RuleCode[] => validateWorkflow(g, { registry: builtInRegistry, models }).map((v) => v.code);
const only = (g: WorkflowGraph, code: RuleCode) => validateWorkflow(g, { registry: builtInRegistry, models }).filter((v) => v.code === code);

describe("validateWorkflow", () => {
  it("accepts the smallest useful workflow", () => {
    // i1 ─► g1 ─► o1
    expect(codes(graph("i1->g1->o1"))).toEqual([]);
  });

  describe("INPUT_HAS_PRE", () => {
    it("reports an input node that is fed by another node", () => {
      // i2 ─► i1 ─► e1 ─► o1
      const violations = only(graph("i1->e1->o1", "i2->i1"), "INPUT_HAS_PRE");
      expect(codes(graph("i1->e1->o1", "i2->i1"))).toEqual(["INPUT_HAS_PRE"]);
      expect(violations[0]).toMatchObject({ nodeIds: ["i1", "i2"], edgeIds: ["i2->i1"] });
      expect(violations[0]?.message).toBe('input node "i1" takes no pre-node, but is fed by "i2"');
    });

    it("accepts both inputs feeding the ensemble instead", () => {
      // i1 ─► e1 ─► o1
      // i2 ──┘
      expect(codes(graph("i1->e1->o1", "i2->e1"))).toEqual([]);
    });
  });

  describe("OUTPUT_HAS_POST", () => {
    it("reports an output node that feeds another node", () => {
      // i1 ─► g1 ─► o1 ─► v1
      const g = graph("i1->g1->o1", "o1->v1");
      expect(codes(g)).toEqual(["OUTPUT_HAS_POST", "MISSING_POST"]);
      expect(only(g, "OUTPUT_HAS_POST")[0]).toMatchObject({ nodeIds: ["o1", "v1"], edgeIds: ["o1->v1"] });
    });

    it("accepts the validation node placed before the output", () => {
      // i1 ─► g1 ─► v1 ─► o1
      expect(codes(graph("i1->g1->v1->o1"))).toEqual([]);
    });
  });

  describe("TYPE_PAIR_FORBIDDEN", () => {
    it("reports an ensemble feeding a generation node, naming both", () => {
      // i1 ─► e1 ─► g1 ─► o1
      const g = graph("i1->e1->g1->o1");
      expect(codes(g)).toEqual(["TYPE_PAIR_FORBIDDEN"]);
      expect(only(g, "TYPE_PAIR_FORBIDDEN")[0]).toEqual({
        code: "TYPE_PAIR_FORBIDDEN",
        message: 'generation node "g1" takes only input nodes as pre-nodes; "e1" is an ensemble node',
        nodeIds: ["e1", "g1"],
        edgeIds: ["e1->g1"],
      });
    });

    it("accepts an ensemble feeding a validation node", () => {
      // i1 ─► e1 ─► v1 ─► o1
      expect(codes(graph("i1->e1->v1->o1"))).toEqual([]);
    });
  });

  describe("MULTIPLE_PRE", () => {
    it("reports a generation node with two pre-nodes", () => {
      // i1 ─► g1 ─► o1
      // i2 ──┘
      const g = graph("i1->g1->o1", "i2->g1");
      expect(codes(g)).toEqual(["MULTIPLE_PRE"]);
      expect(only(g, "MULTIPLE_PRE")[0]).toMatchObject({ nodeIds: ["g1", "i1", "i2"], edgeIds: ["i1->g1", "i2->g1"] });
    });

    it("accepts two pre-nodes on an ensemble node", () => {
      // i1 ─► e1 ─► o1
      // i2 ──┘
      expect(codes(graph("i1->e1->o1", "i2->e1"))).toEqual([]);
    });
  });

  describe("MULTIPLE_POST", () => {
    it("reports a generation node feeding two nodes", () => {
      // i1 ─► g1 ─► e1 ─► o1
      //        └─► v1 ─┘
      const g = graph("i1->g1->e1->o1", "g1->v1->e1");
      expect(codes(g)).toEqual(["MULTIPLE_POST"]);
      expect(only(g, "MULTIPLE_POST")[0]?.edgeIds).toEqual(["g1->e1", "g1->v1"]);
    });

    it("accepts the validation node fed by its own input", () => {
      // i1 ─► g1 ─► e1 ─► o1
      // i2 ─► v1 ──┘
      expect(codes(graph("i1->g1->e1->o1", "i2->v1->e1"))).toEqual([]);
    });
  });

  describe("SELF_LOOP", () => {
    it("reports an edge from an ensemble node to itself", () => {
      // i1 ─► e1 ─┐     i2 ─► o1
      //        ▲──┘
      const g = graph("i1->e1->e1", "i2->o1");
      // Its own edge is no post-node: e1's output still goes nowhere.
      expect(codes(g)).toEqual(["SELF_LOOP", "MISSING_POST"]);
      expect(only(g, "SELF_LOOP")[0]).toMatchObject({ nodeIds: ["e1"], edgeIds: ["e1->e1"] });
    });

    it("accepts the ensemble feeding the output instead", () => {
      // i1 ─► e1 ─► o1
      expect(codes(graph("i1->e1->o1"))).toEqual([]);
    });

    it("reports a self-loop on a validation node by its own code only, not as MULTIPLE_PRE or MULTIPLE_POST", () => {
      // i1 ─► v1 ─► o1
      //       ▲──┘
      const g = graph("i1->v1->o1", "v1->v1");
      expect(codes(g)).toEqual(["SELF_LOOP"]);
    });

    it("reports a self-loop on an input node by its own code only, not as INPUT_HAS_PRE", () => {
      // i1 ─► g1 ─► o1
      // ▲──┘
      expect(codes(graph("i1->g1->o1", "i1->i1"))).toEqual(["SELF_LOOP"]);
    });
  });

  describe("DUPLICATE_EDGE", () => {
    it("reports two edges between the same pair once, with both edge ids", () => {
      // i1 ═► e1 ─► o1   (two edges i1 → e1)
      const g = graph("i1->e1->o1", "i1->e1");
      expect(codes(g)).toEqual(["DUPLICATE_EDGE"]);
      expect(only(g, "DUPLICATE_EDGE")[0]).toMatchObject({ nodeIds: ["i1", "e1"], edgeIds: ["i1->e1", "i1->e1#2"] });
    });

    it("accepts a single edge between the pair", () => {
      // i1 ─► e1 ─► o1
      expect(codes(graph("i1->e1->o1"))).toEqual([]);
    });

    it("reports repeated edges by their own code only, not as MULTIPLE_PRE or MULTIPLE_POST", () => {
      // i1 ═► g1 ═► o1   (two edges i1 → g1, two edges g1 → o1)
      const g = graph("i1->g1->o1", "i1->g1->o1");
      expect(codes(g)).toEqual(["DUPLICATE_EDGE", "DUPLICATE_EDGE"]);
      expect(validateWorkflow(g, { registry: builtInRegistry }).map((v) => v.edgeIds)).toEqual([
        ["i1->g1", "i1->g1#2"],
        ["g1->o1", "g1->o1#2"],
      ]);
    });

    it("still reports MULTIPLE_PRE when a node has two distinct pre-nodes besides the repeat", () => {
      // i1 ═► v1 ─► o1
      // i2 ──┘
      const g = graph("i1->v1->o1", "i1->v1", "i2->v1");
      expect(codes(g)).toEqual(["DUPLICATE_EDGE", "MULTIPLE_PRE"]);
      expect(only(g, "MULTIPLE_PRE")[0]).toMatchObject({ nodeIds: ["v1", "i1", "i2"], edgeIds: ["i1->v1", "i2->v1"] });
    });
  });

  describe("CYCLE", () => {
    it("reports an ensemble/validation loop with its nodes and edges", () => {
      // i1 ─► e1 ─► v1      i2 ─► o1
      //        ▲────┘
      const g = graph("i1->e1->v1->e1", "i2->o1");
      expect(codes(g)).toEqual(["CYCLE"]);
      const [cycle] = only(g, "CYCLE");
      expect(new Set(cycle?.nodeIds)).toEqual(new Set(["e1", "v1"]));
      expect(new Set(cycle?.edgeIds)).toEqual(new Set(["e1->v1", "v1->e1"]));
      expect(cycle?.message).toMatch(/^these nodes form a cycle: (ensemble "e1" → validation "v1" → ensemble "e1"|validation "v1" → ensemble "e1" → validation "v1")$/);
    });

    it("reports each of two separate cycles", () => {
      // i1 ─► e1 ⇄ v1     i2 ─► e2 ⇄ v2     i3 ─► o1
      const g = graph("i1->e1->v1->e1", "i2->e2->v2->e2", "i3->o1");
      const cycles = only(g, "CYCLE").map((v) => new Set(v.nodeIds));
      expect(cycles).toEqual(expect.arrayContaining([new Set(["e1", "v1"]), new Set(["e2", "v2"])]));
      expect(cycles).toHaveLength(2);
    });

    it("lists the cycle's edges in path order", () => {
      // i1 ─► e1 ─► v1 ─► v2 ─► v3
      //        ▲──────────────────┘      i2 ─► o1
      const [cycle] = only(graph("i1->e1->v1->v2->v3->e1", "i2->o1"), "CYCLE");
      const ids = cycle?.nodeIds ?? [];
      const edges = cycle?.edgeIds ?? [];
      expect(edges).toEqual(ids.map((id, k) => `${id}->${ids[(k + 1) % ids.length]}`));
    });

    it("accepts the same nodes without the back edge", () => {
      // i1 ─► e1 ─► v1 ─► o1
      expect(codes(graph("i1->e1->v1->o1"))).toEqual([]);
    });
  });

  describe("MISSING_PRE", () => {
    it("reports a generation node with no pre-node", () => {
      //       g1 ─► e1 ─► o1
      // i1 ─────────┘
      const g = graph("i1->e1->o1", "g1->e1");
      expect(codes(g)).toEqual(["MISSING_PRE"]);
      expect(only(g, "MISSING_PRE")[0]?.message).toBe('generation node "g1" needs at least 1 pre-node; it has none');
    });

    it("accepts the generation node once an input feeds it", () => {
      // i2 ─► g1 ─► e1 ─► o1
      // i1 ─────────┘
      expect(codes(graph("i1->e1->o1", "i2->g1->e1"))).toEqual([]);
    });
  });

  describe("MISSING_POST", () => {
    it("reports an input node that feeds nothing", () => {
      // i1 ─► g1 ─► o1     i2
      expect(codes(graph("i1->g1->o1", "i2"))).toEqual(["MISSING_POST"]);
    });

    it("accepts the second input feeding the ensemble", () => {
      // i1 ─► e1 ─► o1
      // i2 ──┘
      expect(codes(graph("i1->e1->o1", "i2->e1"))).toEqual([]);
    });
  });

  describe("INPUT_REQUIRED", () => {
    it("reports a workflow without an input node", () => {
      // o1
      expect(codes(graph("o1"))).toEqual(["MISSING_PRE", "INPUT_REQUIRED"]);
    });

    it("accepts one input node", () => {
      // i1 ─► o1
      expect(codes(graph("i1->o1"))).toEqual([]);
    });
  });

  describe("OUTPUT_UNIQUE", () => {
    it("reports two output nodes, naming both", () => {
      // i1 ─► o1     i2 ─► o2
      const g = graph("i1->o1", "i2->o2");
      expect(codes(g)).toEqual(["OUTPUT_UNIQUE"]);
      expect(only(g, "OUTPUT_UNIQUE")[0]).toMatchObject({
        nodeIds: ["o1", "o2"],
        message: 'a workflow needs exactly 1 output node; it has 2: "o1", "o2"',
      });
    });

    it("reports a workflow without an output node", () => {
      // i1
      expect(codes(graph("i1"))).toEqual(["MISSING_POST", "OUTPUT_UNIQUE"]);
    });

    it("accepts exactly one output node", () => {
      // i1 ─► e1 ─► o1
      // i2 ──┘
      expect(codes(graph("i1->e1->o1", "i2->e1"))).toEqual([]);
    });
  });

  describe("MODEL_UNAVAILABLE", () => {
    it("reports a model node naming a model its provider does not offer", () => {
      // i1 ─► g1 ─► o1   (g1 uses offline/gpt-9)
      const g = graph("i1->g1->o1");
      g.nodes[1] = { ...g.nodes[1]!, model: "gpt-9" };
      const [violation] = validateWorkflow(g, { registry: builtInRegistry, models });
      expect(violation).toMatchObject({ code: "MODEL_UNAVAILABLE", nodeIds: ["g1"] });
      expect(violation?.message).toBe('generation node "g1" uses model "gpt-9", which provider "offline" does not offer');
    });

    it("reports model nodes without a provider or an unconfigured provider", () => {
      // i1 ─► g1 ─► e1 ─► o1   (g1 names no provider, e1 uses mistral)
      // i2 ────────┘
      const g = graph("i1->g1->e1->o1", "i2->e1");
      g.nodes[1] = { id: "g1", type: "generation" };
      g.nodes[2] = { id: "e1", type: "ensemble", provider: "mistral", model: "mistral-small-latest" };
      expect(validateWorkflow(g, { registry: builtInRegistry, models }).map((v) => v.message)).toEqual([
        'generation node "g1" names no provider',
        'ensemble node "e1" uses provider "mistral", which is not configured',
      ]);
    });

    it("accepts a configured pair, and skips the rule when no catalogue is given", () => {
      // i1 ─► g1 ─► o1
      const g = graph("i1->g1->o1");
      expect(codes(g)).toEqual([]);
      g.nodes[1] = { ...g.nodes[1]!, model: "gpt-9" };
      expect(validateWorkflow(g, { registry: builtInRegistry })).toEqual([]);
    });
  });

  describe("UNKNOWN_NODE_TYPE", () => {
    it("reports a node whose type is not registered and checks the rest", () => {
      // i1 ─► x1 ─► o1
      const violations = validateWorkflow(graph("i1->x1->o1"), { registry: builtInRegistry, models });
      expect(violations).toEqual([
        {
          code: "UNKNOWN_NODE_TYPE",
          message: `node "x1" has unknown type "x" (known types: ${builtInRegistry.types().join(", ")})`,
          nodeIds: ["x1"],
          edgeIds: [],
        },
      ]);
    });
  });

  it("returns every violation of a graph that breaks several rules at once", () => {
    // i1 ─► g1 ─► g2 ─► o1     o2     v1 ─┐
    //                                  ▲──┘
    const g = graph("i1->g1->g2->o1", "o2", "v1->v1");
    // v1's self-loop is no pre-node and no post-node, so v1 is also left unconnected.
    expect(codes(g)).toEqual(["TYPE_PAIR_FORBIDDEN", "SELF_LOOP", "MISSING_PRE", "MISSING_PRE", "MISSING_POST", "OUTPUT_UNIQUE"]);
  });

  it("refuses a graph whose edge names a missing node, as a caller bug", () => {
    // i1 ─► ?
    const g: WorkflowGraph = { nodes: [{ id: "i1", type: "input" }], edges: [{ id: "a", source: "i1", target: "zz" }] };
    expect(() => validateWorkflow(g, { registry: builtInRegistry })).toThrow(expect.objectContaining({ code: "MALFORMED_GRAPH" }));
  });
});
