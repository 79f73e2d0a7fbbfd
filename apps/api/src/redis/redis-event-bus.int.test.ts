import { Redis } from "ioredis";
import { expect, test } from "vitest";
import { busEvent, redisBusPair, until } from "../testing/redis-buses.js";
import { redisForTests } from "../testing/redis-server.js";

const redis = redisForTests();

test("a message published by one process reaches the listeners of another, in publish order, once subscribe has resolved", async () => {
  const [a, b] = redisBusPair(redis().url);
  try {
    const received: number[] = [];
    await a.subscribe("runEvents", "run-1", (message) => received.push(message.seq));
    for (let seq = 1; seq <= 200; seq += 1) void b.publish("runEvents", "run-1", busEvent("run-1", seq));
    await until(() => received.length === 200, "200 messages");
    expect(received).toEqual(Array.from({ length: 200 }, (_, index) => index + 1));
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

test("many local listeners of one channel share one Redis subscription, which ends with the last of them", async () => {
  const [a, b] = redisBusPair(redis().url);
  const probe = new Redis(redis().url);
  try {
    const counts = new Array<number>(100).fill(0);
    const unsubscribes = await Promise.all(counts.map((_, k) => a.subscribe("runStatus", "*", () => (counts[k]! += 1))));
    expect(a.stats()).toEqual({ channels: 1, listeners: 100 });
    const channels = async () => (await probe.call("PUBSUB", "CHANNELS", "*:bus:runStatus:*")) as string[];
    expect(await channels()).toHaveLength(1);

    await b.publish("runStatus", "*", { runId: "r", workflowId: "w", version: null, status: "RUNNING", at: new Date().toISOString() });
    await until(() => counts.every((count) => count === 1), "every listener");

    for (const unsubscribe of unsubscribes) unsubscribe();
    expect(a.stats()).toEqual({ channels: 0, listeners: 0 });
    await until(async () => (await channels()).length === 0, "the channel to be unsubscribed");
  } finally {
    probe.disconnect();
    await Promise.all([a.close(), b.close()]);
  }
});

test("while Redis is down publishing drops messages without failing; after it is back listeners are told to resynchronise and receive again", async () => {
  const [a, b] = redisBusPair(redis().url);
  try {
    const received: number[] = [];
    let resyncs = 0;
    await a.subscribe("runEvents", "run-2", (message) => received.push(message.seq), { onResync: () => (resyncs += 1) });
    await b.publish("runEvents", "run-2", busEvent("run-2", 1));
    await until(() => received.length === 1, "the first message");

    await redis().crash();
    await expect(b.publish("runEvents", "run-2", busEvent("run-2", 2))).resolves.toBeUndefined();
    expect(b.dropped).toBeGreaterThanOrEqual(1);
    await redis().restart();

    await until(() => resyncs === 1, "the resync");
    await until(async () => {
      await b.publish("runEvents", "run-2", busEvent("run-2", 3));
      return received.includes(3);
    }, "a message after the restart");
    expect(received[0]).toBe(1);
    expect(received).not.toContain(2);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
}, 60_000);
