import { describe, expect, it } from "vitest";
import { ProviderError } from "../model/errors.js";
import { deferred } from "../testing/deferred.js";
import { FakeLlmProvider, resultJson } from "../testing/fake-llm-provider.js";
import { run } from "../testing/run-harness.js";
import { workflow } from "../testing/workflow-builder.js";

const badRequest = () => new ProviderError("PROVIDER_BAD_REQUEST", "model refused the prompt", { retryable: false });

describe("failure propagation", () => {
  /*
   *  in ──> gA (fails) ──> vA ──┐
   *   │                         ens ──> out
   *   └──> gB (slow) ──> vB ────┘
   */
  it("skips everything downstream of a failed node and lets independent branches finish", async () => {
    const slowB = deferred<void>();
    const provider = new FakeLlmProvider(async (request) => {
      if (request.prompt.startsWith("A")) {
        setImmediate(() => slowB.resolve());
        throw badRequest();
      }
      if (request.prompt.startsWith("B")) await slowB.promise;
      return resultJson(request.prompt);
    });
    const wf = workflow()
      .input("in")
      .model("gA", "generation", { prompt: "A {input_data}" })
      .model("vA", "validation")
      .model("gB", "generation", { prompt: "B {input_data}" })
      .model("vB", "validation")
      .model("ens", "ensemble")
      .output()
      .edges("in>gA", "in>gB", "gA>vA", "gB>vB", "vA>ens", "vB>ens", "ens>out")
      .build();
    const { outcome, trace, of, events } = await run({ workflow: wf, provider });

    expect(of("NODE_FAILED")).toMatchObject([{ nodeId: "gA", error: { code: "PROVIDER_BAD_REQUEST" } }]);
    expect(of("NODE_SKIPPED").map((event) => [event.nodeId, event.reason, event.blockedBy])).toEqual([
      ["vA", "UPSTREAM_FAILED", "gA"],
      ["ens", "UPSTREAM_FAILED", "gA"],
      ["out", "UPSTREAM_FAILED", "gA"],
    ]);
    expect(trace.indexOf("NODE_COMPLETED vB")).toBeGreaterThan(trace.indexOf("NODE_FAILED gA"));
    expect(outcome).toMatchObject({
      status: "FAILED",
      result: null,
      failedNodeIds: ["gA"],
      outputs: { in: "in", gB: "B in", vB: "B in" },
      error: { code: "NODE_FAILED" },
    });
    expect(events.at(-1)).toMatchObject({ type: "RUN_FAILED", failedNodeIds: ["gA"], outputs: outcome.outputs });
  });

  /*
   *  in ──> g1 (fails) ──┐
   *   └───> g2 (fails) ──┴──> ens ──> out
   */
  it("skips a node once even when several of its pre-nodes fail", async () => {
    const provider = new FakeLlmProvider(() => {
      throw badRequest();
    });
    const wf = workflow()
      .input("in")
      .model("g1", "generation")
      .model("g2", "generation")
      .model("ens", "ensemble")
      .output()
      .edges("in>g1", "in>g2", "g1>ens", "g2>ens", "ens>out")
      .build();
    const { outcome, of } = await run({ workflow: wf, provider });
    expect(of("NODE_SKIPPED").map((event) => event.nodeId)).toEqual(["ens", "out"]);
    expect(outcome.failedNodeIds).toEqual(["g1", "g2"]);
    expect(outcome.error!.message).toBe('node "g1" and 1 more node(s) failed');
  });

  /*
   *  in ──> g (throws a plain Error) ──> out
   */
  it("reports an unexpected executor error as INTERNAL_ERROR with the node's inputs", async () => {
    const provider = new FakeLlmProvider(() => {
      throw new TypeError("boom");
    });
    const wf = workflow().input("in", "x").model("g", "generation").output().edges("in>g", "g>out").build();
    const { of } = await run({ workflow: wf, provider });
    expect(of("NODE_FAILED")[0]).toMatchObject({
      error: { code: "INTERNAL_ERROR", message: "boom" },
      details: { inputs: ["x"], renderedPrompt: "x", provider: "fake", model: "m" },
    });
  });

  /*
   *  in ──> g (its own timeout fires) ──> out
   */
  it("reports a bare TimeoutError from a provider as PROVIDER_TIMEOUT, not as a cancellation", async () => {
    const provider = new FakeLlmProvider(() => {
      throw new DOMException("The operation was aborted due to timeout", "TimeoutError");
    });
    const wf = workflow().input("in").model("g", "generation").output().edges("in>g", "g>out").build();
    const { of, outcome } = await run({ workflow: wf, provider });
    expect(of("NODE_FAILED")[0]!.error.code).toBe("PROVIDER_TIMEOUT");
    expect(outcome.status).toBe("FAILED");
  });
});
