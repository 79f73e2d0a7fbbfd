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
      retryDelaysMs: [],
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

  test("a job whose worker threw is tried again after each delay in turn, until a try succeeds", async () => {
    const tries: string[] = [];
    const queue = new InProcessRunQueue({
      worker: async (runId) => {
        tries.push(runId);
        if (tries.length < 3) throw new Error("the database is away");
      },
      concurrency: 1,
      logger,
      retryDelaysMs: [5, 5, 5],
    });
    queue.enqueue("a");
    await until(() => tries.length === 3 && queue.stats().running === 0);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(tries).toEqual(["a", "a", "a"]);
    expect(queue.stats()).toEqual({ queued: 0, running: 0 });
    await queue.close();
  });

  test("a job whose worker keeps throwing is given up after the last delay, and the queue goes on", async () => {
    const tries: string[] = [];
    const queue = new InProcessRunQueue({
      worker: async (runId) => {
        tries.push(runId);
        if (runId === "bad") throw new Error("boom");
      },
      concurrency: 1,
      logger,
      retryDelaysMs: [5, 5],
    });
    queue.enqueue("bad");
    queue.enqueue("good");
    await until(() => tries.filter((id) => id === "bad").length === 3 && queue.stats().running === 0);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(tries).toEqual(["bad", "good", "bad", "bad"]);
    expect(queue.stats()).toEqual({ queued: 0, running: 0 });
    await queue.close();
  });

  test("a job waiting to be tried again counts as queued, and cancel or close removes it before it runs again", async () => {
    let tries = 0;
    const worker = async () => {
      tries += 1;
      throw new Error("boom");
    };
    const queue = new InProcessRunQueue({ worker, concurrency: 1, logger, retryDelaysMs: [20] });
    queue.enqueue("a");
    await until(() => queue.stats().running === 0);
    expect(queue.stats()).toEqual({ queued: 1, running: 0 });
    expect(await queue.cancel("a", "not needed")).toBe("dequeued");
    const closing = new InProcessRunQueue({ worker, concurrency: 1, logger, retryDelaysMs: [20] });
    closing.enqueue("b");
    await until(() => closing.stats().running === 0);
    await closing.close();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(tries).toBe(2);
    expect(queue.stats()).toEqual({ queued: 0, running: 0 });
    await queue.close();
  });

  test("a job aborted by cancel is not tried again even if its worker throws", async () => {
    let tries = 0;
    const queue = new InProcessRunQueue({
      worker: (_runId, signal) =>
        new Promise<void>((_resolve, reject) => {
          tries += 1;
          signal.addEventListener("abort", () => reject(new Error("stopped badly")));
        }),
      concurrency: 1,
      logger,
      retryDelaysMs: [5],
    });
    queue.enqueue("a");
    await until(() => tries === 1);
    expect(await queue.cancel("a", "stop")).toBe("aborted");
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(tries).toBe(1);
    expect(queue.stats()).toEqual({ queued: 0, running: 0 });
    await queue.close();
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let wait = 0; !condition(); wait += 1) {
    if (wait > 500) throw new Error("the condition never held");
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
