import { describe, expect, it } from "vitest";
import { builtInRegistry } from "../node-types/built-in-node-types.js";
import { validateWorkflow } from "../rules/validate-workflow.js";
import { FakeLlmProvider, resultJson } from "../testing/fake-llm-provider.js";
import { runPipeline } from "../testing/pipeline-harness.js";
import { pipeline } from "../testing/pipeline-builder.js";

/**
 *  q ─► route ─[short]─► a ─┐
 *          └──[long]───► b ─┴─► j ─► out
 */
function routed(question: string, join: Record<string, string> = {}, mode = "first") {
  return pipeline()
    .input("q", question)
    .node("route", "switch", { mode, cases: [{ port: "short", when: "size(input) < 20" }, { port: "long", when: "size(input) >= 5" }] })
    .node("a", "template", { template: "short answer to {input}" })
    .node("b", "template", { template: "long answer to {input}" })
    .node("j", "join", join)
    .output("out")
    .edges("q>route", "route.short>a", "route.long>b", "a>j", "b>j", "j>out")
    .build();
}

describe("branches and joins (SPEC-V2 §4)", () => {
  it("runs the taken branch, skips the other as BRANCH_NOT_TAKEN, and joins what arrived", async () => {
    const workflow = routed("hi");
    expect(validateWorkflow(workflow, { registry: builtInRegistry })).toEqual([]);
    const { outcome, trace, of } = await runPipeline({ workflow });
    expect(outcome).toMatchObject({ status: "COMPLETED", result: "short answer to hi" });
    expect(of("BRANCH_TAKEN")).toEqual([expect.objectContaining({ nodeId: "route", ports: ["short"], skipped: ["long", "default"], invocation: "" })]);
    expect(of("NODE_SKIPPED")).toEqual([expect.objectContaining({ nodeId: "b", reason: "BRANCH_NOT_TAKEN", blockedBy: null })]);
    expect(trace.indexOf("NODE_SKIPPED b")).toBeLessThan(trace.indexOf("NODE_STARTED j"));
  });

  it("with mode all, takes every case that holds and joins both in edge order, never completion order", async () => {
    const workflow = routed("a question", { combine: "array" }, "all");
    workflow.nodes[2] = { id: "a", type: "llm", provider: "offline", model: "scripted", params: { replies: ["A"], delayMs: 50 } };
    workflow.nodes[3] = { id: "b", type: "llm", provider: "offline", model: "scripted", params: { replies: ["B"] } };
    const { outcome, trace } = await runPipeline({ workflow, sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms / 10)) });
    expect(trace.indexOf("NODE_COMPLETED b")).toBeLessThan(trace.indexOf("NODE_COMPLETED a"));
    expect(outcome.result).toBe('["A","B"]');
  });

  it("with join mode first, goes on with the first input to arrive and ignores the later one", async () => {
    const workflow = routed("a question", { mode: "first", combine: "array" }, "all");
    workflow.nodes[2] = { id: "a", type: "llm", provider: "offline", model: "scripted", params: { replies: ["A"], delayMs: 50 } };
    workflow.nodes[3] = { id: "b", type: "llm", provider: "offline", model: "scripted", params: { replies: ["B"] } };
    const { outcome, trace } = await runPipeline({ workflow, sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms / 10)) });
    expect(outcome.result).toBe('["B"]');
    expect(trace.indexOf("NODE_STARTED j")).toBeLessThan(trace.indexOf("NODE_COMPLETED a"));
    expect(trace).toContain("NODE_COMPLETED a");
  });

  it("skips a join whose every input is dead, and everything behind it", async () => {
    //  q ─► route ─[yes]─► a ─► j ─► out     (no case holds, default leads to d ─► out is not wired: j and out die)
    const workflow = pipeline()
      .input("q", "x")
      .node("route", "switch", { cases: [{ port: "yes", when: "false" }] })
      .node("a", "template", { template: "{input}" })
      .node("d", "template", { template: "fallback" })
      .node("j", "join")
      .node("k", "join")
      .output("out")
      .edges("q>route", "route.yes>a", "route.default>d", "a>j", "j>k", "d>k", "k>out")
      .build();
    const { outcome, of } = await runPipeline({ workflow });
    expect(outcome).toMatchObject({ status: "COMPLETED", result: "fallback" });
    expect(of("NODE_SKIPPED").map((event) => [event.nodeId, event.reason])).toEqual([
      ["a", "BRANCH_NOT_TAKEN"],
      ["j", "BRANCH_NOT_TAKEN"],
    ]);
  });

  it("fails a switch with NO_BRANCH_MATCHED when no case holds and default has no edge", async () => {
    const workflow = routed("hi");
    const route = workflow.nodes[1]!;
    workflow.nodes[1] = { ...route, config: { cases: [{ port: "short", when: "false" }, { port: "long", when: "false" }] } };
    const { outcome, of } = await runPipeline({ workflow });
    expect(outcome.status).toBe("FAILED");
    expect(of("NODE_FAILED")[0]).toMatchObject({ nodeId: "route", error: { code: "NO_BRANCH_MATCHED" } });
    expect(of("NODE_SKIPPED").map((event) => [event.nodeId, event.reason, event.blockedBy])).toEqual([
      ["a", "UPSTREAM_FAILED", "route"],
      ["b", "UPSTREAM_FAILED", "route"],
      ["j", "UPSTREAM_FAILED", "route"],
      ["out", "UPSTREAM_FAILED", "route"],
    ]);
  });

  /**
   *  q ─► route ─[short]─► g1 ─┐
   *          └──[long]───► g2 ─┴─► ens ─► out
   * The rules do not let a router feed seed-000 types (their pre-node lists are frozen), but the
   * runner's rule is the same for every type: an ensemble joins what arrived, like join "all".
   */
  it("lets an ensemble after a dead branch go on with the inputs that arrived", async () => {
    const provider = new FakeLlmProvider((request) => resultJson(`merged ${request.inputData}`));
    const workflow = pipeline()
      .input("q", "hi")
      .node("route", "switch", { cases: [{ port: "short", when: "true" }, { port: "long", when: "false" }] })
      .node("g1", "template", { template: "one" })
      .node("g2", "template", { template: "two" })
      .node("ens", "ensemble", {}, { provider: "fake", model: "m" })
      .output("out")
      .edges("q>route", "route.short>g1", "route.long>g2", "g1>ens", "g2>ens", "ens>out")
      .build();
    const { outcome, of } = await runPipeline({ workflow, providers: [provider] });
    expect(outcome).toMatchObject({ status: "COMPLETED", result: "merged one" });
    expect(of("NODE_SKIPPED").map((event) => event.nodeId)).toEqual(["g2"]);
  });

  it("lets classify pick a label, and takes default with a warning when the reply names none", async () => {
    //  q ─► kind ─[question]─► a ─► j ─► out ;  kind ─[default]─► b ─► j
    const build = (reply: string) =>
      pipeline()
        .input("q", "what is weft?")
        .model("kind", "classify", [reply], { labels: ["question", "statement"] })
        .node("a", "template", { template: "Q: {input}" })
        .node("s", "template", { template: "S: {input}" })
        .node("b", "template", { template: "?: {input}" })
        .node("j", "join")
        .output("out")
        .edges("q>kind", "kind.question>a", "kind.statement>s", "kind.default>b", "a>j", "s>j", "b>j", "j>out")
        .build();
    expect((await runPipeline({ workflow: build('{"label": "Question"}') })).outcome.result).toBe("Q: what is weft?");
    const unknown = await runPipeline({ workflow: build("it is a haiku") });
    expect(unknown.outcome.result).toBe("?: what is weft?");
    expect(unknown.of("WARNING")).toEqual([expect.objectContaining({ code: "CLASSIFY_LABEL_UNKNOWN", nodeId: "kind" })]);
  });
});
