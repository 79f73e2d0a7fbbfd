import { describe, expect, it } from "vitest";
import { builtInRegistry } from "../node-types/built-in-node-types.js";
import { validateWorkflow } from "../rules/validate-workflow.js";
import { settle } from "../testing/deferred.js";
import { FakeLlmProvider } from "../testing/fake-llm-provider.js";
import { runPipeline, startPipeline } from "../testing/pipeline-harness.js";
import { body, pipeline } from "../testing/pipeline-builder.js";

/** A model that never answers on its own: it waits for the abort. */
function hanging(id = "fake") {
  return new FakeLlmProvider(
    (_request, call) =>
      new Promise<string>((_resolve, reject) => {
        call.signal.addEventListener("abort", () => reject(Object.assign(new Error("aborted"), { name: "AbortError" })), { once: true });
      }),
    id,
  );
}

async function until(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !predicate(); i += 1) await settle();
  expect(predicate()).toBe(true);
}

const retry = { verdict: "retry", score: 0, reason: "again" };

describe("cancellation and the budget inside loops and maps", () => {
  /**
   *  q ─► draft ─► check ─[pass]─► out
   *         ▲────[retry, loop regen]─┘     draft hangs in its second iteration
   */
  it("cancels in the middle of a loop: the running invocation fails, the rest of its iteration is skipped, no iteration follows", async () => {
    const calls: string[] = [];
    const provider = new FakeLlmProvider((request, call) => {
      calls.push(request.prompt);
      if (calls.length === 1) return "first draft";
      return new Promise<string>((_resolve, reject) => call.signal.addEventListener("abort", () => reject(Object.assign(new Error("aborted"), { name: "AbortError" }))));
    });
    const workflow = pipeline()
      .input("q", "q")
      .node("draft", "llm", {}, { provider: "fake", model: "m" })
      .model("check", "grade", [retry])
      .output("out")
      .edges("q>draft", "draft>check", "check.pass>out")
      .loop("regen", 5)
      .loopEdge("check.retry>draft", "regen")
      .build();
    const controller = new AbortController();
    const { events, done } = startPipeline({ workflow, providers: [provider], signal: controller.signal });
    await until(() => events.some((event) => event.type === "NODE_STARTED" && event.invocation === "regen#2"));
    controller.abort();
    const { outcome, trace } = await done;
    expect(outcome.status).toBe("CANCELLED");
    expect(trace.slice(-4)).toEqual(["NODE_FAILED draft@regen#2", "NODE_SKIPPED check@regen#2", "NODE_SKIPPED out", "RUN_CANCELLED"]);
    expect(trace.filter((line) => line.startsWith("LOOP_ITERATION"))).toEqual(["LOOP_ITERATION regen"]);
  });

  /** q ─► each (map of 3, two at a time: bin ─► work ─► bout) ─► out;  work hangs */
  it("cancels in the middle of a map: running items fail, their rest is skipped, items not started leave no trace", async () => {
    const inner = pipeline().input("bin").node("work", "llm", {}, { provider: "fake", model: "m", prompt: "{item}" }).output("bout").edges("bin>work", "work>bout");
    const workflow = pipeline()
      .input("q")
      .node("each", "map", { items: "[1, 2, 3]", concurrency: 2, body: body(inner) })
      .output("out")
      .edges("q>each", "each>out")
      .build();
    const controller = new AbortController();
    const provider = hanging();
    const { done } = startPipeline({ workflow, providers: [provider], signal: controller.signal });
    await until(() => provider.calls.length === 2);
    controller.abort();
    const { outcome, trace } = await done;
    expect(outcome.status).toBe("CANCELLED");
    expect(trace.slice(-7)).toEqual([
      "NODE_FAILED work@each[0]",
      "NODE_SKIPPED bout@each[0]",
      "NODE_FAILED work@each[1]",
      "NODE_SKIPPED bout@each[1]",
      "NODE_FAILED each",
      "NODE_SKIPPED out",
      "RUN_CANCELLED",
    ]);
    expect(trace.filter((line) => line.includes("each[2]"))).toEqual([]);
  });

  it("refuses before the run a graph whose worst case exceeds the budget, and stops a run that would exceed it", async () => {
    //  q ─► draft ─► check ─[pass]─► out ; retry loops up to 10 times
    const workflow = pipeline()
      .input("q", "q")
      .model("draft", "llm", ["d"])
      .model("check", "grade", [retry])
      .output("out")
      .edges("q>draft", "draft>check", "check.pass>out")
      .loop("regen", 10, "pass")
      .loopEdge("check.retry>draft", "regen")
      .build();
    expect(validateWorkflow(workflow, { registry: builtInRegistry, maxInvocations: 8 }).map((violation) => violation.code)).toEqual(["RUN_BUDGET_EXCEEDED"]);
    const { outcome, of } = await runPipeline({ workflow, options: { maxInvocations: 8 } });
    expect(outcome).toMatchObject({ status: "FAILED", error: { code: "RUN_BUDGET_EXCEEDED" } });
    expect(of("NODE_STARTED")).toHaveLength(8);
    expect(of("NODE_SKIPPED").map((event) => [event.nodeId, event.invocation, event.reason])).toEqual([
      ["check", "regen#4", "UPSTREAM_FAILED"],
      ["out", "", "UPSTREAM_FAILED"],
    ]);
  });
});
