import { pino } from "pino";
import { expect, test } from "vitest";
import { redisBusPair, until } from "../testing/redis-buses.js";
import { redisForTests } from "../testing/redis-server.js";
import { BullRunQueue } from "./bull-run-queue.js";

const logger = pino({ level: "silent" });
const redis = redisForTests();

test("a worker process counts as alive while its queue's worker is connected to Redis, and not once it has gone", async () => {
  const [busA, busB] = redisBusPair(redis().url);
  const prefix = `alive${Math.random().toString(36).slice(2, 8)}`;
  const options = { url: redis().url, prefix, logger, concurrency: 1, lockMs: 1_000, graceMs: 0 };
  const idle = async () => undefined;
  const a = new BullRunQueue({ ...options, bus: busA, worker: idle, workerId: "host-a:101:aaaaaa" });
  const b = new BullRunQueue({ ...options, bus: busB, worker: idle, workerId: "host-b:202:bbbbbb" });
  try {
    await Promise.all([a.ready(), b.ready()]);
    await until(async () => (await a.workerAlive("host-b:202:bbbbbb")) && (await b.workerAlive("host-a:101:aaaaaa")), "each worker to see the other");
    // A name that is another's prefix is another worker.
    expect(await a.workerAlive("host-b:202")).toBe(false);
    expect(await a.workerAlive("host-c:303:cccccc")).toBe(false);
    await b.close();
    await until(async () => !(await a.workerAlive("host-b:202:bbbbbb")), "the closed worker to be gone");
  } finally {
    await Promise.all([a.close(), b.close()]);
    await Promise.all([busA.close(), busB.close()]);
  }
});
