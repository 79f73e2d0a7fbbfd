import { describe, expect, it } from "vitest";
import type { RunEvent } from "../events/run-event.js";
import { deferred, settle, type Deferred } from "../testing/deferred.js";
import { FakeLlmProvider } from "../testing/fake-llm-provider.js";
import { startRun } from "../testing/run-harness.js";
import { workflow } from "../testing/workflow-builder.js";
import { ConcurrencyLimiter } from "./concurrency-limiter.js";

/*
 *  in ──> g ──> out
 */
const single = () => workflow().input("in").model("g", "generation").output().edges("in>g", "g>out").build();

/** An event handler that holds each NODE_STARTED until the test lets it through (a slow database). */
function heldStarts() {
  const held: { event: RunEvent; stored: Deferred<void> }[] = [];
  const onEvent = (event: RunEvent): Promise<void> | void => {
    if (event.type !== "NODE_STARTED") return;
    const stored = deferred<void>();
    held.push({ event, stored });
    return stored.promise;
  };
  return { held, onEvent };
}

describe("recordInFlight", () => {
  it("a node does no work until its NODE_STARTED has been handled", async () => {
    const provider = new FakeLlmProvider();
    const { held, onEvent } = heldStarts();
    const { done } = startRun({ workflow: single(), provider, onEvent, options: { recordInFlight: true } });
    for (let turn = 0; turn < 50 && held.length < 2; turn += 1) {
      held.at(-1)?.stored.resolve();
      await settle();
    }
    // in's start is stored; g has started but its start is still being stored: no model call yet.
    expect(held.map(({ event }) => "nodeId" in event && event.nodeId)).toEqual(["in", "g"]);
    for (let turn = 0; turn < 20; turn += 1) await settle();
    expect(provider.calls).toHaveLength(0);
    held[1]!.stored.resolve();
    for (let turn = 0; turn < 50 && held.length < 3; turn += 1) await settle();
    expect(provider.calls).toHaveLength(1);
    held.at(-1)?.stored.resolve();
    expect((await done).outcome.status).toBe("COMPLETED");
  });

  it("without it, a node begins at once, its start stored with the events around it", async () => {
    const provider = new FakeLlmProvider();
    const { held, onEvent } = heldStarts();
    const { done } = startRun({ workflow: single(), provider, onEvent });
    for (let turn = 0; turn < 50 && held.length < 2; turn += 1) {
      held.at(-1)?.stored.resolve();
      await settle();
    }
    for (let turn = 0; turn < 20 && provider.calls.length === 0; turn += 1) await settle();
    // g's start is not handled yet, and its model has been called.
    expect(provider.calls).toHaveLength(1);
    for (let turn = 0; turn < 50 && held.length < 3; turn += 1) {
      for (const { stored } of held) stored.resolve();
      await settle();
    }
    for (const { stored } of held) stored.resolve();
    expect((await done).outcome.status).toBe("COMPLETED");
  });

  it("a node gives its process slot back only once its end has been handled, so no other node begins in between", async () => {
    const provider = new FakeLlmProvider();
    const limiter = new ConcurrencyLimiter(1);
    const held: Deferred<void>[] = [];
    const onEvent = (event: RunEvent): Promise<void> | void => {
      if (event.type !== "NODE_COMPLETED" || event.nodeId !== "g") return;
      const stored = deferred<void>();
      held.push(stored);
      return stored.promise;
    };
    const { done } = startRun({ workflow: single(), provider, onEvent, options: { recordInFlight: true, limiter } });
    for (let turn = 0; turn < 100 && held.length === 0; turn += 1) await settle();
    for (let turn = 0; turn < 20; turn += 1) await settle();
    // g has finished, its NODE_COMPLETED is still being stored: it still holds the slot.
    expect([provider.calls.length, limiter.active]).toEqual([1, 1]);
    expect(limiter.exclusive().tryAcquire()).toBe(false);
    held[0]!.resolve();
    expect((await done).outcome.status).toBe("COMPLETED");
    for (let turn = 0; turn < 5; turn += 1) await settle();
    expect(limiter.active).toBe(0);
  });

  it("a node cancelled while its start is being stored never begins, and gives its process slot back", async () => {
    const provider = new FakeLlmProvider();
    const limiter = new ConcurrencyLimiter(1);
    const controller = new AbortController();
    const { held, onEvent } = heldStarts();
    const { done } = startRun({ workflow: single(), provider, onEvent, signal: controller.signal, options: { recordInFlight: true, limiter } });
    for (let turn = 0; turn < 50 && held.length < 2; turn += 1) {
      held.at(-1)?.stored.resolve();
      await settle();
    }
    expect(limiter.active).toBe(1);
    controller.abort("stopped");
    held[1]!.stored.resolve();
    const { outcome } = await done;
    for (let turn = 0; turn < 5; turn += 1) await settle();
    expect([outcome.status, provider.calls.length, limiter.active]).toEqual(["CANCELLED", 0, 0]);
  });
});
