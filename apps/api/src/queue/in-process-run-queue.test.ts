import { pino } from "pino";
import { describe, expect, test } from "vitest";
import { InProcessRunQueue } from "./in-process-run-queue.js";

const logger = pino({ level: "silent" });

/** A worker that runs until its signal aborts, recording what happened. */
function blockingWorker(log: string[]) {
  return (runId: string, signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      log.push(`start ${runId}`);
      signal.addEventListener("abort", () => {
        log.push(`abort ${runId}: ${String(signal.reason)}`);
        resolve();
      });
    });
}

describe("InProcessRunQueue", () => {
  test("runs at most `concurrency` jobs; the next starts when one ends", async () => {
    const log: string[] = [];
    const queue = new InProcessRunQueue({ worker: blockingWorker(log), concurrency: 2, logger });
    queue.enqueue("a");
    queue.enqueue("b");
    queue.enqueue("c");
    await Promise.resolve();
    expect(queue.stats()).toEqual({ queued: 1, running: 2 });
    expect(await queue.cancel("a", "stop")).toBe("aborted");
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(["start a", "start b", "abort a: stop", "start c"]);
    await queue.close();
  });

  test("a waiting job is removed without ever starting; an unknown one is reported as such", async () => {
    const log: string[] = [];
    const queue = new InProcessRunQueue({ worker: blockingWorker(log), concurrency: 1, logger });
    queue.enqueue("a");
    queue.enqueue("b");
    expect(await queue.cancel("b", "not needed")).toBe("dequeued");
    expect(await queue.cancel("zzz", "no such job")).toBe("unknown");
    await queue.close();
    expect(log).toEqual(["start a", "abort a: the server is shutting down"]);
  });

  test("a failing worker is logged and does not stop the queue", async () => {
    const done: string[] = [];
    const queue = new InProcessRunQueue({
      worker: async (runId) => {
        if (runId === "bad") throw new Error("boom");
        done.push(runId);
      },
      concurrency: 1,
      logger,
    });
    queue.enqueue("bad");
    queue.enqueue("good");
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(done).toEqual(["good"]);
    expect(queue.stats()).toEqual({ queued: 0, running: 0 });
    expect(() => queue.enqueue("late")).not.toThrow();
    await queue.close();
    expect(() => queue.enqueue("after close")).toThrow("closed");
  });
});
