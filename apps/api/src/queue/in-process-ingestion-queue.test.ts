import { pino } from "pino";
import { describe, expect, test } from "vitest";
import { InProcessIngestionQueue } from "./in-process-ingestion-queue.js";

const logger = pino({ level: "silent" });

/** A worker whose passes run until the test finishes them (or their signal aborts). */
function controlledWorker() {
  const log: string[] = [];
  const finish = new Map<string, () => void>();
  const worker = (knowledgeBaseId: string, signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      log.push(`start ${knowledgeBaseId}`);
      finish.set(knowledgeBaseId, () => {
        log.push(`end ${knowledgeBaseId}`);
        resolve();
      });
      signal.addEventListener("abort", () => {
        log.push(`abort ${knowledgeBaseId}: ${String(signal.reason)}`);
        resolve();
      });
    });
  const started = (id: string) => log.filter((line) => line === `start ${id}`).length;
  return { log, worker, end: (id: string) => finish.get(id)!(), started };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("InProcessIngestionQueue", () => {
  test("indexes at most `concurrency` knowledge bases at once and never one knowledge base twice at once", async () => {
    const work = controlledWorker();
    const queue = new InProcessIngestionQueue({ worker: work.worker, concurrency: 2, logger });
    void queue.enqueue("a");
    void queue.enqueue("a");
    void queue.enqueue("b");
    void queue.enqueue("c");
    await tick();
    expect(queue.stats()).toEqual({ queued: 2, running: 2 });
    expect(work.log).toEqual(["start a", "start b"]);
    work.end("a");
    await tick();
    // The second request for "a" arrived while its pass ran: it waited in line (first in, first out).
    expect(work.log).toEqual(["start a", "start b", "end a", "start a"]);
    work.end("b");
    await tick();
    expect(work.log.slice(4)).toEqual(["end b", "start c"]);
    expect(work.started("a")).toBe(2);
    await queue.close();
  });

  test("enqueue resolves when a pass that started after it has finished", async () => {
    const work = controlledWorker();
    const queue = new InProcessIngestionQueue({ worker: work.worker, concurrency: 1, logger });
    const first = queue.enqueue("kb");
    await tick();
    let secondDone = false;
    const second = queue.enqueue("kb").then(() => (secondDone = true));
    work.end("kb");
    await first;
    await tick();
    // The first pass may have missed what the second request stored: only the next pass counts.
    expect(secondDone).toBe(false);
    expect(work.started("kb")).toBe(2);
    work.end("kb");
    await second;
    expect(secondDone).toBe(true);
    await queue.close();
  });

  test("cancel aborts a running pass, drops a waiting one and releases whoever waited", async () => {
    const work = controlledWorker();
    const queue = new InProcessIngestionQueue({ worker: work.worker, concurrency: 1, logger });
    const running = queue.enqueue("a");
    const waiting = queue.enqueue("b");
    await tick();
    await queue.cancel("b", "deleted");
    await waiting;
    await queue.cancel("a", "deleted");
    await running;
    expect(work.log).toEqual(["start a", "abort a: deleted"]);
    expect(queue.stats()).toEqual({ queued: 0, running: 0 });
  });

  test("close aborts running passes and later requests resolve without running", async () => {
    const work = controlledWorker();
    const queue = new InProcessIngestionQueue({ worker: work.worker, concurrency: 1, logger });
    void queue.enqueue("a");
    const waiting = queue.enqueue("b");
    await tick();
    await queue.close();
    await waiting;
    await queue.enqueue("c");
    expect(work.log).toEqual(["start a", "abort a: the server is shutting down"]);
  });
});
