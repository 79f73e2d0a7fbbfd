import { describe, expect, it } from "vitest";
import type { RunEvent } from "../events/run-event.js";
import { deferred } from "../testing/deferred.js";
import { RunEventSink } from "./run-event-sink.js";

describe("RunEventSink", () => {
  it("queues events behind a pending handler and delivers them in order once it settles", async () => {
    const gate = deferred<void>();
    const seen: number[] = [];
    const sink = new RunEventSink("r", (event: RunEvent) => {
      seen.push(event.seq);
      return event.seq === 1 ? gate.promise : undefined;
    }, () => 0, () => undefined);
    sink.emit({ type: "RUN_STARTED", nodeIds: [] });
    sink.emit({ type: "WARNING", code: "X", message: "x" });
    sink.emit({ type: "WARNING", code: "Y", message: "y" });
    expect(seen).toEqual([1]);
    expect(sink.busy).toBe(true);
    gate.resolve();
    await sink.flush();
    expect(seen).toEqual([1, 2, 3]);
    expect(sink.busy).toBe(false);
  });

  it("reports a throwing handler once and accepts no more events", () => {
    const failures: unknown[] = [];
    const sink = new RunEventSink("r", () => {
      throw new Error("db down");
    }, () => 0, (error) => failures.push(error));
    sink.emit({ type: "RUN_STARTED", nodeIds: [] });
    sink.emit({ type: "RUN_STARTED", nodeIds: [] });
    expect(failures).toHaveLength(1);
  });
});
