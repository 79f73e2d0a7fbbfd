import { describe, expect, it } from "vitest";
import type { RuleCode } from "../model/violation.js";
import type { Workflow } from "../model/workflow.js";
import { builtInRegistry } from "../node-types/built-in-node-types.js";
import { pipeline } from "../testing/pipeline-builder.js";
import { validateWorkflow } from "./validate-workflow.js";

const check = (workflow: Workflow) => validateWorkflow(workflow, { registry: builtInRegistry });
const codes = (workflow: Workflow): RuleCode[] => check(workflow).map((violation) => violation.code);
const only = (workflow: Workflow, code: RuleCode) => check(workflow).filter((violation) => violation.code === code);

/**
 *  q ─► route ─[simple]──► direct ──────────────► j ─► out
 *          └──[default]─► draft ─► check ─[pass]─┘
 *                           ▲──[retry, loop regen]┘
 */
function retryLoop() {
  return pipeline()
    .input("q")
    .node("route", "switch", { cases: [{ port: "simple", when: "size(input) < 20" }] })
    .model("direct", "llm", ["short"])
    .model("draft", "llm", ["long"])
    .model("check", "grade", [{ verdict: "pass", score: 1, reason: "" }])
    .node("j", "join")
    .output("out")
    .edges("q>route", "route.simple>direct", "route.default>draft", "draft>check", "check.pass>j", "direct>j", "j>out")
    .loop("regen", 3, "pass")
    .loopEdge("check.retry>draft", "regen");
}

describe("the loop rules of SPEC-V2 §5", () => {
  it("accepts a grader that sends its draft back through a declared, bounded loop", () => {
    expect(codes(retryLoop().build())).toEqual([]);
  });

  describe("CYCLE", () => {
    it("reports a cycle of data edges: a loop must use a loop edge", () => {
      //  draft ─► check ─[retry]─► draft   (a data edge, not a loop edge)
      const workflow = retryLoop().edges("check.retry>draft").build();
      workflow.edges = workflow.edges.filter((edge) => edge.loop === undefined);
      expect(only(workflow, "CYCLE")[0]).toMatchObject({ nodeIds: expect.arrayContaining(["draft", "check"]) });
    });

    it("does not count loop edges as data edges, for cycles or degrees", () => {
      // draft takes at most... llm takes any number; check (grade) takes exactly one data edge
      expect(codes(retryLoop().build())).not.toContain("CYCLE");
      expect(codes(retryLoop().build())).not.toContain("MULTIPLE_PRE");
    });
  });

  describe("LOOP_NOT_DECLARED", () => {
    it("reports a loop edge naming a loop the workflow does not declare", () => {
      const workflow = retryLoop().loopEdge("check.fail>draft", "again").build();
      expect(only(workflow, "LOOP_NOT_DECLARED")).toEqual([
        {
          code: "LOOP_NOT_DECLARED",
          message: 'edge "check.fail>draft@again" names loop "again", which is not declared in loops',
          nodeIds: ["check", "draft"],
          edgeIds: ["check.fail>draft@again"],
        },
      ]);
    });

    it("accepts it once the loop is declared (one header per loop still holds)", () => {
      const workflow = retryLoop().loop("again", 2).loopEdge("check.fail>draft", "again").build();
      expect(codes(workflow)).toEqual(["LOOP_NOT_REDUCIBLE"]);
      expect(only(workflow, "LOOP_NOT_REDUCIBLE")[0]?.message).toContain('share the header "draft"');
    });
  });

  describe("LOOP_UNCONDITIONAL", () => {
    it("reports a loop edge leaving a node that is not a router", () => {
      //  draft ─► check … plus draft ─[loop]─► draft's header? (llm "direct" back to route)
      const workflow = retryLoop().loop("spin", 2).loopEdge("direct>route", "spin").build();
      expect(only(workflow, "LOOP_UNCONDITIONAL")[0]).toMatchObject({ nodeIds: ["direct"], edgeIds: ["direct>route@spin"] });
    });

    it("accepts a loop edge from a router port", () => {
      expect(only(retryLoop().build(), "LOOP_UNCONDITIONAL")).toEqual([]);
    });
  });

  describe("LOOP_TARGET_NOT_HEADER", () => {
    it("reports the edges of one loop going back to different nodes", () => {
      const workflow = retryLoop().loopEdge("check.fail>route", "regen").build();
      expect(only(workflow, "LOOP_TARGET_NOT_HEADER")[0]).toMatchObject({ nodeIds: ["draft", "route"] });
    });

    it("accepts two graders whose loop edges share one loop and one header", () => {
      //  draft ─► check ─[pass]─► facts ─[pass]─► j       both retry to draft (loop regen)
      const workflow = pipeline()
        .input("q")
        .model("draft", "llm", ["x"])
        .model("check", "grade", [])
        .model("facts", "grade", [])
        .output("out")
        .edges("q>draft", "draft>check", "check.pass>facts", "facts.pass>out")
        .loop("regen", 3, "pass")
        .loopEdge("check.retry>draft", "regen")
        .loopEdge("facts.retry>draft", "regen")
        .build();
      expect(codes(workflow)).toEqual([]);
    });
  });

  describe("LOOP_NOT_REDUCIBLE", () => {
    /**
     *  q ─► draft ─► fix ─► check ─[pass]─► out
     *  q ─────────────┘ ▲         └─[retry, loop regen]─► draft
     */
    it("reports a loop whose body can be entered without passing its header", () => {
      const workflow = pipeline()
        .input("q")
        .model("draft", "llm", ["x"])
        .node("fix", "template", { template: "{input}" })
        .model("check", "grade", [])
        .output("out")
        .edges("q>draft", "draft>fix", "q>fix", "fix>check", "check.pass>out")
        .loop("regen", 3)
        .loopEdge("check.retry>draft", "regen")
        .build();
      const [violation] = only(workflow, "LOOP_NOT_REDUCIBLE");
      expect(violation).toMatchObject({ nodeIds: ["draft", "check"], edgeIds: ["check.retry>draft@regen"] });
      expect(violation?.message).toContain("may only be entered through its header");
    });

    it("reports two loops whose bodies overlap without nesting", () => {
      //  q ─► a ─► b ─► c ─► out ;  b ─[loop one]─► a ;  c ─[loop two]─► b
      const workflow = pipeline()
        .input("q")
        .model("a", "llm", [])
        .model("b", "grade", [])
        .model("c", "grade", [])
        .output("out")
        .edges("q>a", "a>b", "b.pass>c", "c.pass>out")
        .loop("one", 2)
        .loop("two", 2)
        .loopEdge("b.retry>a", "one")
        .loopEdge("c.retry>b", "two")
        .build();
      expect(only(workflow, "LOOP_NOT_REDUCIBLE")[0]?.message).toContain("overlap without one lying inside the other");
    });

    it("accepts a loop nested inside another, with its own header", () => {
      //  q ─► a ─► b ─► c ─► out ;  b ─[loop inner]─► b's header a2 … inner: a2 ─► b ; outer: c ─► a
      const workflow = pipeline()
        .input("q")
        .model("a", "llm", [])
        .model("a2", "llm", [])
        .model("b", "grade", [])
        .model("c", "grade", [])
        .output("out")
        .edges("q>a", "a>a2", "a2>b", "b.pass>c", "c.pass>out")
        .loop("outer", 2)
        .loop("inner", 2)
        .loopEdge("b.retry>a2", "inner")
        .loopEdge("c.retry>a", "outer")
        .build();
      expect(codes(workflow)).toEqual([]);
    });
  });

  describe("LOOP_BOUND_INVALID", () => {
    it.each([[undefined], [0], [101], [2.5]])("reports a loop whose max is %s", (max) => {
      const workflow = retryLoop().build();
      workflow.loops = [{ id: "regen", exit: "pass", ...(max === undefined ? {} : { max }) }];
      expect(only(workflow, "LOOP_BOUND_INVALID")).toEqual([expect.objectContaining({ field: "loops[0].max" })]);
    });

    it("accepts 1 and 100", () => {
      for (const max of [1, 100]) {
        const workflow = retryLoop().build();
        workflow.loops = [{ id: "regen", max, exit: null }];
        expect(codes(workflow)).toEqual([]);
      }
    });
  });

  describe("PORT_UNKNOWN for a loop's exit", () => {
    it("reports an exit port that a router taking the loop edge does not have", () => {
      const workflow = retryLoop().build();
      workflow.loops = [{ id: "regen", max: 3, exit: "done" }];
      expect(only(workflow, "PORT_UNKNOWN")).toEqual([expect.objectContaining({ nodeIds: ["check"], field: "loops[0].exit" })]);
    });
  });
});
