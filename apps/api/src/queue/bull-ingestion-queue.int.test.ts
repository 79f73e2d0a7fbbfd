import { pino } from "pino";
import { expect, test } from "vitest";
import { redisBusPair, until } from "../testing/redis-buses.js";
import { redisForTests } from "../testing/redis-server.js";
import { BullIngestionQueue } from "./bull-ingestion-queue.js";

/** Ingestion passes asked for by an API process and run by a worker process, through one real Redis. */
const logger = pino({ level: "silent" });
const redis = redisForTests();

/** A worker whose passes run until the test ends them (or their signal aborts), with a PENDING flag per knowledge base. */
function controlledIndexer() {
  const log: string[] = [];
  const pending = new Set<string>();
  const finish = new Map<string, () => void>();
  const index = (knowledgeBaseId: string, signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      log.push(`start ${knowledgeBaseId}`);
      pending.delete(knowledgeBaseId);
      finish.set(knowledgeBaseId, () => {
        log.push(`end ${knowledgeBaseId}`);
        resolve();
      });
      signal.addEventListener("abort", () => {
        log.push(`abort ${knowledgeBaseId}: ${String(signal.reason)}`);
        resolve();
      });
    });
  return { log, pending, index, end: (id: string) => finish.get(id)!() };
}

async function processes() {
  const indexer = controlledIndexer();
  const [apiBus, workerBus] = redisBusPair(redis().url);
  const prefix = `ingest${Math.random().toString(36).slice(2, 8)}`;
  const common = { url: redis().url, prefix, logger, concurrency: 2, lockMs: 2_000, hasPending: async (id: string) => indexer.pending.has(id) };
  const api = new BullIngestionQueue({ ...common, bus: apiBus, worker: null });
  const worker = new BullIngestionQueue({ ...common, bus: workerBus, worker: indexer.index });
  const close = async () => {
    await Promise.all([api.close(), worker.close()]);
    await Promise.all([apiBus.close(), workerBus.close()]);
  };
  return { indexer, api, close };
}

test("a pass asked for by an API process runs on a worker process, and enqueue resolves once it is done", async () => {
  const { indexer, api, close } = await processes();
  try {
    indexer.pending.add("kb1");
    let done = false;
    const requested = api.enqueue("kb1").then(() => (done = true));
    await until(() => indexer.log.includes("start kb1"), "the pass to start");
    expect(done).toBe(false);
    indexer.end("kb1");
    await requested;
    expect(indexer.log).toEqual(["start kb1", "end kb1"]);
  } finally {
    await close();
  }
});

test("documents stored while a pass runs get another pass, and one pass runs at a time per knowledge base", async () => {
  const { indexer, api, close } = await processes();
  try {
    indexer.pending.add("kb2");
    const first = api.enqueue("kb2");
    await until(() => indexer.log.includes("start kb2"), "the first pass");
    indexer.pending.add("kb2"); // stored while the pass runs
    const second = api.enqueue("kb2");
    indexer.end("kb2");
    await until(() => indexer.log.filter((line) => line === "start kb2").length === 2, "the second pass");
    indexer.end("kb2");
    await Promise.all([first, second]);
    expect(indexer.log).toEqual(["start kb2", "end kb2", "start kb2", "end kb2"]);
  } finally {
    await close();
  }
});

test("cancel through the API process aborts the pass on the worker", async () => {
  const { indexer, api, close } = await processes();
  try {
    indexer.pending.add("kb3");
    const requested = api.enqueue("kb3");
    await until(() => indexer.log.includes("start kb3"), "the pass to start");
    await api.cancel("kb3", "deleted");
    await requested;
    expect(indexer.log).toEqual(["start kb3", "abort kb3: deleted"]);
  } finally {
    await close();
  }
});
