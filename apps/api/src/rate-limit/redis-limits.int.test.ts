import { Redis } from "ioredis";
import { afterAll, expect, test } from "vitest";
import { redisForTests } from "../testing/redis-server.js";
import { CallerBudget, type BudgetStore } from "./caller-budget.js";
import { RedisConnectionCap } from "./connection-cap.js";

/** Limits shared by several API processes through one Redis; each "process" here has its own connection. */
const redis = redisForTests();
const connections: Redis[] = [];
afterAll(() => {
  for (const connection of connections) connection.disconnect();
});

async function processStore(prefix: string): Promise<BudgetStore> {
  const connection = new Redis(redis().url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, retryStrategy: () => 100 });
  connection.on("error", () => undefined);
  connections.push(connection);
  await new Promise((resolve) => connection.once("ready", resolve));
  return { redis: connection, prefix };
}

test("a budget of N shared by two processes admits exactly N of many concurrent calls", async () => {
  const prefix = "budget";
  const [a, b] = [new CallerBudget("runs", 25, await processStore(prefix)), new CallerBudget("runs", 25, await processStore(prefix))];
  const decisions = await Promise.all(Array.from({ length: 80 }, (_, k) => (k % 2 === 0 ? a : b).take("key:shared")));
  expect(decisions.filter((decision) => decision.allowed)).toHaveLength(25);
  const refused = decisions.find((decision) => !decision.allowed);
  expect(refused).toMatchObject({ allowed: false, limit: 25 });
  // Another caller has its own budget.
  expect(await a.take("key:other")).toEqual({ allowed: true });
});

test("while Redis is away each process limits on its own (the insurance limiter), and the shared count resumes after", async () => {
  const prefix = "insurance";
  const store = await processStore(prefix);
  const budget = new CallerBudget("requests", 3, store);
  expect((await budget.take("ip:1")).allowed).toBe(true);
  await redis().crash();
  try {
    const during = await Promise.all(Array.from({ length: 5 }, () => budget.take("ip:1")));
    expect(during.filter((decision) => decision.allowed)).toHaveLength(3);
  } finally {
    await redis().restart();
  }
});

test("the WebSocket cap counts one caller's sockets across processes; a closed socket frees its place everywhere", async () => {
  const prefix = "sockets";
  const [a, b] = [new RedisConnectionCap(3, await processStore(prefix)), new RedisConnectionCap(3, await processStore(prefix))];
  try {
    const first = [await a.tryOpen("key:k"), await b.tryOpen("key:k"), await a.tryOpen("key:k")];
    expect(first.every((place) => place !== null)).toBe(true);
    expect(await b.tryOpen("key:k")).toBeNull();
    expect(await b.tryOpen("key:other")).not.toBeNull();
    a.release("key:k", first[0]!);
    let reopened: string | null = null;
    for (let attempt = 0; attempt < 50 && reopened === null; attempt += 1) {
      reopened = await b.tryOpen("key:k");
      if (reopened === null) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(reopened).not.toBeNull();
  } finally {
    a.stop();
    b.stop();
  }
});
