import { randomBytes } from "node:crypto";
import { startRedisServer, type RedisServer } from "@weft/test-services";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startApiProcess, type ApiProcess } from "../../../testing/api-process.js";
import { acquirePostgres, openTestDatabase, releasePostgres, type TestDatabase } from "../../../testing/database.js";
import { seedWorkflow, TEST_SECRET_KEY } from "../../../testing/app.js";
import { graphql } from "../../../testing/gql/index.js";
import { arrows } from "../../../testing/workflows.js";

const CreateEvery2s = graphql(`
  mutation CreateEvery2s($workflowId: ID!) {
    createScheduleTrigger(workflowId: $workflowId, input: { cron: "*/2 * * * * *", overlap: ALLOW, inputs: [{ nodeId: "in", from: "body.tick" }] }) {
      trigger { id }
      errors { code message }
    }
  }
`);

const PROCESS_TEST_MS = 240_000;
const PROCESSES = 3;

/**
 * Three processes (`main.ts --role all`, each its own Node process) on one PostgreSQL and one Redis tick
 * a schedule every 2 s through BullMQ's job scheduler: every tick is handled once — one run, or a
 * recorded miss — while they run, and again after all of them are stopped and started anew.
 */
describe("a schedule ticked by three processes on Redis", () => {
  let redis: RedisServer;
  let database: TestDatabase;
  const adminKey = `weft_test_${randomBytes(24).toString("base64url")}`;
  let processes: ApiProcess[] = [];

  const env = () => ({ DATABASE_URL: database.location, REDIS_URL: redis.url, WEFT_SECRET_KEY: TEST_SECRET_KEY, WEFT_QUEUE_LOCK_MS: "1000" });
  const startAll = async () => (processes = await Promise.all(Array.from({ length: PROCESSES }, () => startApiProcess("all", env(), adminKey))));
  const stopAll = async () => {
    await Promise.all(processes.map((process) => process.kill("SIGTERM")));
    processes = [];
  };

  beforeAll(async () => {
    [redis] = await Promise.all([startRedisServer(), acquirePostgres()]);
    database = await openTestDatabase("server");
    await startAll();
  }, PROCESS_TEST_MS);

  afterAll(async () => {
    await Promise.all(processes.map((process) => process.kill("SIGKILL")));
    await database?.close();
    await releasePostgres();
    await redis?.stop();
  }, 60_000);

  const firings = (triggerId: string) => database.prisma.triggerFiring.findMany({ where: { triggerId } });
  const tickOf = (key: string | null) => Date.parse(key!.replace("tick:", ""));
  async function waitForTicksAfter(triggerId: string, after: number, count: number) {
    for (;;) {
      const rows = await firings(triggerId);
      if (rows.filter((row) => tickOf(row.key) > after).length >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** Every tick from the first to the last of a window handled exactly once, and each started run the only one of its tick. */
  async function expectEachTickOnce(triggerId: string, from: number, to: number) {
    const rows = (await firings(triggerId)).filter((row) => tickOf(row.key) >= from && tickOf(row.key) <= to);
    const ticks = rows.map((row) => tickOf(row.key)).sort((a, b) => a - b);
    const expected = Array.from({ length: (ticks.at(-1)! - ticks[0]!) / 2000 + 1 }, (_, k) => ticks[0]! + k * 2000);
    expect(ticks).toEqual(expected);
    const runs = await database.prisma.run.findMany({ where: { triggerId }, select: { id: true, request: true } });
    const runTicks = runs.map((run) => Date.parse((run.request as { inputs: { in: string } }).inputs.in));
    expect(new Set(runTicks).size).toBe(runTicks.length);
    const started = rows.filter((row) => row.status === "STARTED");
    expect(started.length).toBeGreaterThan(0);
    for (const row of started) expect(runs.some((run) => run.id === row.runId)).toBe(true);
  }

  test(
    "each tick fires once across the processes, and again once each after they are all restarted",
    async () => {
      const workflowId = await seedWorkflow(database, arrows(["in->g1->out"]));
      const { createScheduleTrigger } = await processes[0]!.admin.request(CreateEvery2s, { workflowId });
      expect(createScheduleTrigger.errors).toEqual([]);
      const triggerId = createScheduleTrigger.trigger!.id;

      await waitForTicksAfter(triggerId, 0, 5);
      await stopAll();
      const beforeRestart = Math.max(...(await firings(triggerId)).map((row) => tickOf(row.key)));
      await expectEachTickOnce(triggerId, 0, beforeRestart);

      // While they are all down no tick fires; at the restart, ticks less than a minute late fire then (the
      // starting deadline), older ones are recorded as missed: either way each tick is handled once.
      await startAll();
      await waitForTicksAfter(triggerId, Date.now(), 5);
      await stopAll();
      const all = (await firings(triggerId)).map((row) => tickOf(row.key));
      await expectEachTickOnce(triggerId, Math.min(...all), Math.max(...all));
      expect(await database.prisma.run.count({ where: { triggerId } })).toBe((await firings(triggerId)).filter((row) => row.status === "STARTED").length);
    },
    PROCESS_TEST_MS,
  );
});
