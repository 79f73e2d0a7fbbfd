import { describe, expect, it } from "vitest";
import type { JsonValue } from "../model/json-value.js";
import { builtInRegistry } from "../node-types/built-in-node-types.js";
import { validateWorkflow } from "../rules/validate-workflow.js";
import { runPipeline } from "../testing/pipeline-harness.js";
import { pipeline } from "../testing/pipeline-builder.js";

const verdict = (v: string, reason = "") => ({ verdict: v, score: v === "pass" ? 0.9 : 0.2, reason });

/**
 *  q ─► draft ─► check ─[pass]─► out
 *         ▲────[retry, loop regen]─┘
 */
function retryLoop(grades: JsonValue[], max = 3, exit: string | null = "pass") {
  return pipeline()
    .input("q", "why is the sky blue?")
    .model("draft", "llm", ["draft one", "draft two", "draft three", "draft four"], {}, { prompt: "Answer {input} (try {iteration}) {feedback}" })
    .model("check", "grade", grades)
    .output("out")
    .edges("q>draft", "draft>check", "check.pass>out")
    .loop("regen", max, exit)
    .loopEdge("check.retry>draft", "regen")
    .build();
}

describe("loops (SPEC-V2 §4)", () => {
  it("runs three iterations when the grader says retry, retry, pass, carrying its feedback to the draft", async () => {
    const workflow = retryLoop([verdict("retry", "cite a source"), verdict("retry", "shorter please"), verdict("pass")]);
    expect(validateWorkflow(workflow, { registry: builtInRegistry })).toEqual([]);
    const { outcome, of } = await runPipeline({ workflow });
    expect(outcome).toMatchObject({ status: "COMPLETED", result: "draft three" });
    expect(of("LOOP_ITERATION").map((event) => [event.loopId, event.iteration, event.max, event.feedback, event.invocation])).toEqual([
      ["regen", 2, 3, "cite a source", "regen#2"],
      ["regen", 3, 3, "shorter please", "regen#3"],
    ]);
    const drafts = of("NODE_COMPLETED").filter((event) => event.nodeId === "draft");
    expect(drafts.map((event) => [event.invocation, event.details.renderedPrompt])).toEqual([
      ["", "Answer why is the sky blue? (try 1) "],
      ["regen#2", "Answer why is the sky blue? (try 2) cite a source"],
      ["regen#3", "Answer why is the sky blue? (try 3) shorter please"],
    ]);
    expect(of("NODE_STARTED").filter((event) => event.nodeId === "out").map((event) => event.invocation)).toEqual([""]);
  });

  it("decides the edges that leave the loop from its final iteration only", async () => {
    const { of } = await runPipeline({ workflow: retryLoop([verdict("retry"), verdict("pass")]) });
    expect(of("BRANCH_TAKEN").map((event) => [event.invocation, event.ports])).toEqual([
      ["", ["retry"]],
      ["regen#2", ["pass"]],
    ]);
    expect(of("NODE_COMPLETED").find((event) => event.nodeId === "out")?.output).toBe("draft two");
    expect(of("NODE_SKIPPED")).toEqual([]);
  });

  it("takes the exit port with a LOOP_EXHAUSTED event when the loop runs out", async () => {
    const { outcome, of } = await runPipeline({ workflow: retryLoop([verdict("retry", "nope")], 2, "pass") });
    expect(outcome).toMatchObject({ status: "COMPLETED", result: "draft two" });
    expect(of("LOOP_EXHAUSTED")).toEqual([expect.objectContaining({ loopId: "regen", nodeId: "check", max: 2, exit: "pass", invocation: "regen#2" })]);
    expect(of("BRANCH_TAKEN").at(-1)).toMatchObject({ ports: ["pass"], invocation: "regen#2" });
  });

  it("fails the router with LOOP_EXHAUSTED when the exhausted loop has no exit", async () => {
    const { outcome, of } = await runPipeline({ workflow: retryLoop([verdict("retry")], 2, null) });
    expect(outcome.status).toBe("FAILED");
    expect(of("NODE_FAILED")).toEqual([expect.objectContaining({ nodeId: "check", invocation: "regen#2", error: expect.objectContaining({ code: "LOOP_EXHAUSTED" }) })]);
    expect(of("NODE_SKIPPED").map((event) => [event.nodeId, event.reason])).toEqual([["out", "UPSTREAM_FAILED"]]);
  });

  /**
   *  q ─► draft ─► check ─[pass]─► facts ─[pass]─► out
   *         ▲──[retry]──┘    ▲──────[retry]──┘     (both loop edges: loop regen, one counter)
   */
  function twoGraders(max: number, check: JsonValue[], facts: JsonValue[]) {
    return pipeline()
      .input("q", "q")
      .model("draft", "llm", ["d1", "d2", "d3"])
      .model("check", "grade", check)
      .model("facts", "grade", facts)
      .output("out")
      .edges("q>draft", "draft>check", "check.pass>facts", "facts.pass>out")
      .loop("regen", max, "pass")
      .loopEdge("check.retry>draft", "regen")
      .loopEdge("facts.retry>draft", "regen")
      .build();
  }

  it("shares one counter between two loop edges of one loop", async () => {
    const workflow = twoGraders(3, [verdict("retry", "style"), verdict("pass")], [verdict("retry", "a wrong date"), verdict("pass")]);
    expect(validateWorkflow(workflow, { registry: builtInRegistry })).toEqual([]);
    const { outcome, of } = await runPipeline({ workflow });
    expect(outcome.result).toBe("d3");
    expect(of("LOOP_ITERATION").map((event) => [event.iteration, event.feedback])).toEqual([
      [2, "style"],
      [3, "a wrong date"],
    ]);
  });

  it("exhausts the shared counter whichever grader asks last", async () => {
    const { of } = await runPipeline({ workflow: twoGraders(2, [verdict("retry", "style"), verdict("pass")], [verdict("retry", "dates")]) });
    expect(of("LOOP_ITERATION").map((event) => event.iteration)).toEqual([2]);
    expect(of("LOOP_EXHAUSTED")).toEqual([expect.objectContaining({ nodeId: "facts", invocation: "regen#2" })]);
  });

  it("names the invocations of nested loops outer first, and restarts the inner loop in each outer iteration", async () => {
    //  q ─► a ─► a2 ─► inner ─[pass]─► outer ─[pass]─► out ; inner ─[retry]─► a2 ; outer ─[retry]─► a
    const workflow = pipeline()
      .input("q", "q")
      .model("a", "llm", ["a"])
      .model("a2", "llm", ["b"])
      .model("inner", "grade", [verdict("retry"), verdict("pass"), verdict("pass")])
      .model("outer", "grade", [verdict("retry"), verdict("pass")])
      .output("out")
      .edges("q>a", "a>a2", "a2>inner", "inner.pass>outer", "outer.pass>out")
      .loop("big", 2)
      .loop("small", 2)
      .loopEdge("inner.retry>a2", "small")
      .loopEdge("outer.retry>a", "big")
      .build();
    expect(validateWorkflow(workflow, { registry: builtInRegistry })).toEqual([]);
    const { outcome, of } = await runPipeline({ workflow });
    expect(outcome.status).toBe("COMPLETED");
    expect(of("NODE_STARTED").filter((event) => event.nodeId === "a2").map((event) => event.invocation)).toEqual(["", "small#2", "big#2"]);
  });
});
