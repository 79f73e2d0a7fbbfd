import { describe, expect, it } from "vitest";
import type { JsonValue } from "../model/json-value.js";
import { estimateCallCost } from "../providers/model-cost.js";
import { deferred, settle } from "../testing/deferred.js";
import { FakeLlmProvider } from "../testing/fake-llm-provider.js";
import { pipeline } from "../testing/pipeline-builder.js";
import { runPipeline, startPipeline } from "../testing/pipeline-harness.js";
import { resumeFromEvents } from "./run-resume.js";

/** $1 per million prompt tokens, $2 per million completion tokens; each reply reports 10 + 100 tokens: $0.00021. */
const PRICED = [{ id: "p", label: "priced", inputUsdPerMTok: 1, outputUsdPerMTok: 2 }];
const USAGE = { promptTokens: 10, completionTokens: 100, totalTokens: 110 };
const CALL_COST = 0.00021;

const priced = (answer?: ConstructorParameters<typeof FakeLlmProvider>[0]) =>
  new FakeLlmProvider(answer ?? ((request) => `reply to ${request.prompt}`), "vendor", { models: PRICED, usage: USAGE });

const llm = () => ({ provider: "vendor", model: "p", prompt: "say {input}", params: { maxTokens: 100 } as Record<string, JsonValue> });

/** q ─► a ─► b ─► out, both model nodes priced */
const chain = (maxCostUsd?: number) => {
  const builder = pipeline().input("q", "hi").node("a", "llm", {}, llm()).node("b", "llm", {}, llm()).output("out").edges("q>a", "a>b", "b>out");
  return (maxCostUsd === undefined ? builder : builder.maxCostUsd(maxCostUsd)).build();
};

describe("the cost of a run", () => {
  it("is each priced call's usage at its model's prices, per node run and summed for the run", async () => {
    const run = await runPipeline({ workflow: chain(), providers: [priced()] });
    expect(run.outcome.status).toBe("COMPLETED");
    const completed = run.of("NODE_COMPLETED").filter((event) => event.details.provider === "vendor");
    expect(completed.map((event) => event.details.costUsd)).toEqual([CALL_COST, CALL_COST]);
    expect(run.outcome.costUsd).toBeCloseTo(2 * CALL_COST, 12);
    expect(run.of("RUN_COMPLETED")[0]!.costUsd).toBeCloseTo(2 * CALL_COST, 12);
  });

  it("is absent when no model had a price", async () => {
    const run = await runPipeline({ workflow: pipeline().input("q", "hi").model("a", "llm", ["x"]).output("out").edges("q>a", "a>out").build() });
    expect(run.outcome.costUsd).toBeNull();
    expect(run.of("RUN_COMPLETED")[0]).not.toHaveProperty("costUsd");
    expect(run.of("NODE_COMPLETED").find((event) => event.nodeId === "a")!.details).not.toHaveProperty("costUsd");
  });
});

describe("limits.maxCostUsd", () => {
  it("stops the run with RUN_COST_EXCEEDED before the call whose estimate would pass it", async () => {
    const provider = priced();
    const estimate = estimateCallCost({ model: "p", prompt: "say reply to say hi", json: false, params: { maxTokens: 100 }, inputData: "" }, { inputUsdPerMTok: 1, outputUsdPerMTok: 2 });
    // The first call fits; after it, what was spent plus the second's estimate does not.
    const limit = CALL_COST + estimate / 2;
    const run = await runPipeline({ workflow: chain(limit), providers: [provider] });
    expect(provider.calls).toHaveLength(1);
    expect(run.outcome).toMatchObject({ status: "FAILED", error: { code: "RUN_COST_EXCEEDED" } });
    expect(run.outcome.error!.message).toMatch(/^node "b" would make a model call estimated at up to \$\S+, taking the run past its limit of \$\S+ \(spent \$0\.000210\)$/);
    expect(run.of("NODE_FAILED").map((event) => [event.nodeId, event.error.code])).toEqual([["b", "RUN_COST_EXCEEDED"]]);
    expect(run.outcome.costUsd).toBeCloseTo(CALL_COST, 12);
  });

  /** q ─► a, q ─► b, q ─► c: three priced calls at once, room for two estimates */
  it("counts the estimates of calls in flight, so parallel calls cannot pass it together", async () => {
    const gate = deferred<void>();
    const provider = priced(async (request) => {
      await gate.promise;
      return `reply to ${request.prompt}`;
    });
    const estimate = estimateCallCost({ model: "p", prompt: "say hi", json: false, params: { maxTokens: 100 }, inputData: "" }, { inputUsdPerMTok: 1, outputUsdPerMTok: 2 });
    const workflow = pipeline()
      .input("q", "hi")
      .node("a", "llm", {}, llm())
      .node("b", "llm", {}, llm())
      .node("c", "llm", {}, llm())
      .edges("q>a", "q>b", "q>c")
      .maxCostUsd(2.5 * estimate)
      .build();
    const started = startPipeline({ workflow, providers: [provider] });
    await settle();
    gate.resolve();
    const run = await started.done;
    expect(provider.calls).toHaveLength(2);
    expect(run.outcome).toMatchObject({ status: "FAILED", error: { code: "RUN_COST_EXCEEDED", message: expect.stringContaining("held by calls in flight") } });
  });

  it("warns once that calls of a model without prices are not counted, except the offline test models", async () => {
    const unpriced = new FakeLlmProvider((request) => request.prompt, "plain", { models: [{ id: "u", label: "u" }] });
    const workflow = pipeline()
      .input("q", "hi")
      .node("a", "llm", {}, { provider: "plain", model: "u" })
      .node("b", "llm", {}, { provider: "plain", model: "u" })
      .model("t", "llm", ["x"])
      .edges("q>a", "a>b", "b>t")
      .maxCostUsd(1)
      .build();
    const run = await runPipeline({ workflow, providers: [unpriced] });
    expect(run.outcome.status).toBe("COMPLETED");
    expect(run.of("WARNING").map((event) => [event.nodeId, event.code, event.message])).toEqual([
      ["a", "COST_UNKNOWN", "plain/u has no price: its calls are not counted against limits.maxCostUsd (set prices in WEFT_PROVIDERS_FILE)"],
    ]);
  });

  it("counts what a resumed run's earlier attempt spent", async () => {
    const first = await runPipeline({ workflow: chain(), providers: [priced()] });
    const upToA = first.events.slice(0, first.events.findIndex((event) => event.type === "NODE_COMPLETED" && event.nodeId === "a") + 1);
    const provider = priced();
    const estimate = estimateCallCost({ model: "p", prompt: "say reply to say hi", json: false, params: { maxTokens: 100 }, inputData: "" }, { inputUsdPerMTok: 1, outputUsdPerMTok: 2 });
    const resume = { attempt: 2, lastSeq: upToA.length, record: resumeFromEvents(upToA.map((event) => ({ ...event }))) };
    const run = await runPipeline({ workflow: chain(CALL_COST + estimate / 2), providers: [provider], resume });
    expect(provider.calls).toHaveLength(0);
    expect(run.outcome).toMatchObject({ status: "FAILED", error: { code: "RUN_COST_EXCEEDED" } });
    expect(run.outcome.costUsd).toBeCloseTo(CALL_COST, 12);
  });
});
