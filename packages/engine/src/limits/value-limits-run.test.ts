import { describe, expect, it } from "vitest";
import { measureJson } from "./json-measure.js";
import { runPipeline } from "../testing/pipeline-harness.js";
import { pipeline } from "../testing/pipeline-builder.js";

const deepArray = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

function failureOf(run: Awaited<ReturnType<typeof runPipeline>>, nodeId: string) {
  return run.of("NODE_FAILED").find((event) => event.nodeId === nodeId)?.error;
}

describe("the value gate in runs (SPEC-V3 §1)", () => {
  /** q ─► deep (template, json: true, [[[…]]] 5,000 deep) ─► out */
  it("fails a JSON template nested 5,000 deep with VALUE_TOO_DEEP, without building the value", async () => {
    const workflow = pipeline().input("q", "x").node("deep", "template", { template: deepArray(5000), json: true }).output("out").edges("q>deep", "deep>out").build();
    const run = await runPipeline({ workflow });
    expect(failureOf(run, "deep")?.code).toBe("VALUE_TOO_DEEP");
    expect(run.outcome.status).toBe("FAILED");
  });

  it("fails a JSON template nested 65 deep (one past the default) and accepts 64", async () => {
    for (const [depth, code] of [[65, "VALUE_TOO_DEEP"], [64, undefined]] as const) {
      const workflow = pipeline().input("q", "x").node("deep", "template", { template: deepArray(depth), json: true }).output("out").edges("q>deep", "deep>out").build();
      expect(failureOf(await runPipeline({ workflow }), "deep")?.code).toBe(code);
    }
  });

  /** q (200 KB) ─► big (template: "{input}" × 300) ─► out */
  it("stops rendering a template that would pass the node output limit (OUTPUT_TOO_LARGE)", async () => {
    const workflow = pipeline().input("q").node("big", "template", { template: "{input}".repeat(300) }).output("out").edges("q>big", "big>out").build();
    const run = await runPipeline({ workflow, request: { inputs: { q: "y".repeat(200_000) } } });
    expect(failureOf(run, "big")?.code).toBe("OUTPUT_TOO_LARGE");
  });

  /**
   * q ─► a1 ─┬─► a2 ─┬─► … a24 ─► out      each level joins the two nodes of the level below,
   *     b1 ─┘   b2 ─┘                        so its output doubles: level 24 would be gigabytes
   */
  it("stops a ladder of joins whose output doubles per level at the node output limit", async () => {
    const builder = pipeline().input("q", "x".repeat(5_000));
    builder.node("a0", "template", { template: "{input}" }).node("b0", "template", { template: "{input}" }).edges("q>a0", "q>b0");
    for (let level = 1; level <= 24; level += 1) {
      builder.node(`a${level}`, "join", { combine: "array" }).node(`b${level}`, "join", { combine: "array" });
      builder.edges(`a${level - 1}>a${level}`, `b${level - 1}>a${level}`, `a${level - 1}>b${level}`, `b${level - 1}>b${level}`);
    }
    const workflow = builder.node("end", "join", {}).output("out").edges("a24>end", "b24>end", "end>out").build();
    const run = await runPipeline({ workflow });
    const failed = run.of("NODE_FAILED").map((event) => event.error.code);
    expect(failed).toContain("OUTPUT_TOO_LARGE");
    expect(run.outcome.status).toBe("FAILED");
    for (const event of run.events) expect(measureJson(event, { maxBytes: 4 * 1_048_576 }).problem).toBeNull();
  });

  /** q ─► n1 ─► n2 ─► … ─► n40 ─► out      each node outputs 10 KB; the run may store 100 KB */
  it("stops a run that would store more than its budget with RUN_TOO_LARGE, keeping no outputs", async () => {
    const builder = pipeline().input("q", "z".repeat(10_000));
    let previous = "q";
    for (let index = 1; index <= 40; index += 1) {
      builder.node(`n${index}`, "template", { template: "{input}" }).edges(`${previous}>n${index}`);
      previous = `n${index}`;
    }
    const workflow = builder.output("out").edges(`${previous}>out`).build();
    const maxRunBytes = 100_000;
    const run = await runPipeline({ workflow, options: { limits: { maxRunBytes } } });
    expect(run.outcome.status).toBe("FAILED");
    expect(run.outcome.error?.code).toBe("RUN_TOO_LARGE");
    const terminal = run.of("RUN_FAILED")[0]!;
    expect(terminal.error.code).toBe("RUN_TOO_LARGE");
    const stored = run.events.reduce((total, event) => total + measureJson(event).bytes, 0);
    // The skeleton events after the budget was reached (a few hundred bytes each) are all that passes it.
    expect(stored).toBeLessThan(maxRunBytes + 5_000);
    expect(run.of("NODE_FAILED").some((event) => event.error.code === "RUN_TOO_LARGE")).toBe(true);
  });

  /** q ─► answer (llm with a schema; the model replies 5,000 levels deep) ─► out */
  it("refuses a model reply nested 5,000 deep with VALUE_TOO_DEEP before parsing it", async () => {
    const workflow = pipeline()
      .input("q", "x")
      .model("answer", "llm", [deepArray(5000)], { schema: { type: "array" } })
      .output("out")
      .edges("q>answer", "answer>out")
      .build();
    const run = await runPipeline({ workflow });
    expect(failureOf(run, "answer")?.code).toBe("VALUE_TOO_DEEP");
  });

  it("refuses a starting state nested too deep before the run starts", async () => {
    let deep: unknown = 1;
    for (let level = 0; level < 100; level += 1) deep = [deep];
    const workflow = pipeline().input("q", "x").output("out").edges("q>out").state({ notes: { reducer: "append" } }).build();
    await expect(runPipeline({ workflow, state: { notes: deep as never } })).rejects.toThrow(/VALUE_TOO_DEEP/);
  });
});
