import { describe, expect, it } from "vitest";
import { ProviderError } from "../model/errors.js";
import { OfflineLlmProvider } from "../providers/offline-llm-provider.js";
import { settle } from "../testing/deferred.js";
import { FakeLlmProvider, type FakeCall } from "../testing/fake-llm-provider.js";
import { startRun, run } from "../testing/run-harness.js";
import { workflow } from "../testing/workflow-builder.js";
import { abortableSleep } from "../model/abortable-sleep.js";
import { ConcurrencyLimiter } from "./concurrency-limiter.js";

/** Answers only when aborted: the call rejects with the signal's reason. */
const hangingProvider = () =>
  new FakeLlmProvider(
    (_request, call: FakeCall) =>
      new Promise<string>((_resolve, reject) => call.signal.addEventListener("abort", () => reject(call.signal.reason))),
  );

async function until(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !predicate(); i += 1) await settle();
  expect(predicate()).toBe(true);
}

/*
 *  in ──> g ──> v ──> out
 */
const chain = () =>
  workflow().input("in").model("g", "generation").model("v", "validation").output().edges("in>g", "g>v", "v>out").build();

describe("cancellation", () => {
  it("aborts the in-flight provider call, skips the nodes not started and ends RUN_CANCELLED", async () => {
    const provider = hangingProvider();
    const controller = new AbortController();
    const { done } = startRun({ workflow: chain(), provider, signal: controller.signal });
    await until(() => provider.calls.length === 1);
    controller.abort("stopped by the user");
    const { outcome, trace, of, events } = await done;

    expect(provider.calls[0]!.signal.aborted).toBe(true);
    expect(of("NODE_FAILED")).toMatchObject([{ nodeId: "g", error: { code: "RUN_CANCELLED" } }]);
    expect(of("NODE_SKIPPED").map((event) => [event.nodeId, event.reason, event.blockedBy])).toEqual([
      ["v", "RUN_CANCELLED", null],
      ["out", "RUN_CANCELLED", null],
    ]);
    expect(trace.at(-1)).toBe("RUN_CANCELLED");
    expect(events.at(-1)).toMatchObject({ reason: "stopped by the user", outputs: { in: "in" } });
    expect(outcome).toMatchObject({ status: "CANCELLED", outputs: { in: "in" }, result: null });
  });

  it("skips every node when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const { outcome, of } = await run({ workflow: chain(), provider: new FakeLlmProvider(), signal: controller.signal });
    expect(outcome.status).toBe("CANCELLED");
    expect(of("NODE_SKIPPED").map((event) => event.nodeId)).toEqual(["in", "g", "v", "out"]);
    expect(of("NODE_STARTED")).toEqual([]);
  });

  it("cuts short a backoff wait", async () => {
    const provider = new FakeLlmProvider(() => {
      throw new ProviderError("PROVIDER_UNAVAILABLE", "503", { retryable: true, status: 503 });
    });
    const controller = new AbortController();
    const { done, events } = startRun({
      workflow: chain(),
      provider,
      signal: controller.signal,
      options: { sleep: abortableSleep, retry: { baseDelayMs: 3_600_000, maxDelayMs: 3_600_000 } },
    });
    await until(() => events.some((event) => event.type === "WARNING"));
    controller.abort();
    expect((await done).outcome.status).toBe("CANCELLED");
  });

  it("stops an offline model's simulated delay", async () => {
    const controller = new AbortController();
    const wf = workflow()
      .input("in")
      .model("g", "generation", { provider: "offline", model: "echo", params: { delayMs: 3_600_000 } })
      .output()
      .edges("in>g", "g>out")
      .build();
    const { done, events } = startRun({ workflow: wf, provider: new OfflineLlmProvider(), signal: controller.signal });
    await until(() => events.some((event) => event.type === "NODE_STARTED" && event.nodeId === "g"));
    controller.abort();
    expect((await done).outcome.status).toBe("CANCELLED");
  });

  it("skips, without starting, a node still waiting for a slot of the shared limiter", async () => {
    const limiter = new ConcurrencyLimiter(1);
    const provider = hangingProvider();
    const controller = new AbortController();
    /*
     *  in ──> g1 ──┐
     *   └───> g2 ──┴──> ens ──> out
     */
    const wf = workflow()
      .input("in")
      .model("g1", "generation")
      .model("g2", "generation")
      .model("ens", "ensemble")
      .output()
      .edges("in>g1", "in>g2", "g1>ens", "g2>ens", "ens>out")
      .build();
    const { done } = startRun({ workflow: wf, provider, signal: controller.signal, options: { limiter } });
    await until(() => provider.calls.length === 1 && limiter.waiting === 1);
    controller.abort();
    const { of } = await done;
    expect(of("NODE_STARTED").map((event) => event.nodeId)).toEqual(["in", "g1"]);
    expect(of("NODE_SKIPPED").map((event) => event.nodeId)).toEqual(["g2", "ens", "out"]);
    await settle();
    expect(limiter.active).toBe(0);
    expect(limiter.waiting).toBe(0);
  });
});
