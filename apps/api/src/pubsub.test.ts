import { describe, expect, test } from "vitest";
import { ALL_RUNS, InProcessEventBus, type RunStatusMessage } from "./pubsub.js";

const status = (runId: string): RunStatusMessage => ({ runId, workflowId: "w", version: null, status: "RUNNING", at: "2026-11-21T10:00:00.000Z" });

describe("InProcessEventBus", () => {
  test("delivers to current subscribers of the channel only, in publish order", async () => {
    const bus = new InProcessEventBus();
    const a: string[] = [];
    const b: string[] = [];
    await bus.subscribe("runStatus", ALL_RUNS, (message) => a.push(message.runId));
    await bus.publish("runStatus", ALL_RUNS, status("r1"));
    await bus.subscribe("runStatus", ALL_RUNS, (message) => b.push(message.runId));
    await bus.subscribe("runStatus", "other", () => b.push("wrong channel"));
    await bus.publish("runStatus", ALL_RUNS, status("r2"));
    expect(a).toEqual(["r1", "r2"]);
    expect(b).toEqual(["r2"]);
  });

  test("an unsubscribed listener hears nothing more, and a throwing listener does not stop the others", async () => {
    const bus = new InProcessEventBus();
    const heard: string[] = [];
    await bus.subscribe("runStatus", ALL_RUNS, () => {
      throw new Error("broken subscriber");
    });
    const unsubscribe = await bus.subscribe("runStatus", ALL_RUNS, (message) => heard.push(message.runId));
    await bus.publish("runStatus", ALL_RUNS, status("r1"));
    unsubscribe();
    await bus.publish("runStatus", ALL_RUNS, status("r2"));
    expect(heard).toEqual(["r1"]);
    expect(bus.subscriberCount()).toBe(1);
  });
});
