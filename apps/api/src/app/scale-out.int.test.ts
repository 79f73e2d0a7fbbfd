import { randomBytes } from "node:crypto";
import { startRedisServer, type RedisServer } from "@weft/test-services";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startApiProcess, type ApiProcess } from "../testing/api-process.js";
import { acquirePostgres, openTestDatabase, releasePostgres, type TestDatabase } from "../testing/database.js";
import { seedWorkflow } from "../testing/app.js";
import { CancelRun, CreateApiKey, RunDetail, RunEvents, RunWorkflow } from "../testing/operations.js";
import { arrows } from "../testing/workflows.js";

/**
 * Two API processes and two worker processes, each its own Node process (`main.ts --role …`), meeting
 * through one PostgreSQL and one Redis: runs accepted by either API execute on a worker, events reach
 * subscribers of the other API, cancellation crosses processes, and a killed worker's run is taken over.
 */
const PROCESS_TEST_MS = 240_000;
/** The runs budget of each caller, counted in Redis across both API processes. */
const RUNS_PER_MINUTE = 40;
/** Times the worker executing a run is killed (kill -9), each at another moment of the run. */
const KILLS = 20;
/** How long a worker stopped by SIGTERM lets its runs finish before handing them over. */
const GRACE_MS = 1_500;

describe("API and worker processes on Redis", () => {
  let redis: RedisServer;
  let database: TestDatabase;
  const adminKey = `weft_test_${randomBytes(24).toString("base64url")}`;
  let apis: ApiProcess[] = [];
  let workers: ApiProcess[] = [];
  /** Workers started to replace killed ones (they join `workers` once listening). */
  const replacements: Promise<void>[] = [];

  const processEnv = () => ({
    DATABASE_URL: database.location,
    REDIS_URL: redis.url,
    WEFT_QUEUE_LOCK_MS: "1000",
    WEFT_PROCESS_CONCURRENCY: "2",
    WEFT_RATE_LIMIT_RUNS_PER_MINUTE: String(RUNS_PER_MINUTE),
    WEFT_RUN_MAX_ATTEMPTS: "5",
    WEFT_SHUTDOWN_GRACE_MS: String(GRACE_MS),
  });

  beforeAll(async () => {
    [redis] = await Promise.all([startRedisServer(), acquirePostgres()]);
    database = await openTestDatabase("server");
    const env = processEnv();
    const started = await Promise.all([
      startApiProcess("api", env, adminKey),
      startApiProcess("api", env, adminKey),
      startApiProcess("worker", env, adminKey),
      startApiProcess("worker", env, adminKey),
      startApiProcess("worker", env, adminKey),
    ]);
    apis = started.slice(0, 2);
    workers = started.slice(2);
  }, PROCESS_TEST_MS);

  afterAll(async () => {
    await Promise.allSettled(replacements);
    await Promise.all([...apis, ...workers].map((process) => process.kill("SIGKILL")));
    await database?.close();
    await releasePostgres();
    await redis?.stop();
  }, 60_000);

  const pidOf = async (runId: string) => {
    const row = await database.prisma.run.findUniqueOrThrow({ where: { id: runId }, select: { claimedBy: true } });
    return Number(row.claimedBy?.split(":")[1]);
  };
  const waitFor = async <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  test("a subscriber on one API sees every seq of a run started through the other and executed by a worker", async () => {
    const workflowId = await seedWorkflow(database, arrows(["in->g1->v1->out"], { params: { delayMs: 300 } }));
    const started = await apis[1]!.admin.request(RunWorkflow, { workflowId, input: {} });
    const runId = started.runWorkflow.run!.id;
    const ws = apis[0]!.admin.ws();
    try {
      const events = apis[0]!.admin.subscribe(ws, RunEvents, { runId, afterSeq: 0 });
      await events.ended;
      expect(events.failure).toBeNull();
      const seqs = events.items.map((item) => item.runEvents.seq);
      expect(seqs).toEqual(seqs.map((_, index) => index + 1));
      expect(events.items.at(-1)?.runEvents.type).toBe("RUN_COMPLETED");
      expect(workers.map((worker) => worker.pid)).toContain(await pidOf(runId));
    } finally {
      await ws.dispose();
    }
  }, PROCESS_TEST_MS);

  test("runs accepted by both APIs are spread over the workers and all complete", async () => {
    const workflowId = await seedWorkflow(database, arrows(["in->g1->out"], { params: { delayMs: 400 } }));
    const runIds = await Promise.all(
      Array.from({ length: 8 }, async (_, k) => (await apis[k % 2]!.admin.request(RunWorkflow, { workflowId, input: {} })).runWorkflow.run!.id),
    );
    const statuses = await waitFor(
      () => database.prisma.run.findMany({ where: { id: { in: runIds } }, select: { status: true } }),
      (rows) => rows.every((row) => row.status === "COMPLETED"),
      "every run to complete",
    );
    expect(statuses).toHaveLength(8);
    const pids = new Set(await Promise.all(runIds.map(pidOf)));
    expect(pids.size).toBeGreaterThanOrEqual(2);
    for (const pid of pids) expect(workers.map((worker) => worker.pid)).toContain(pid);
  }, PROCESS_TEST_MS);

  test("cancelRun through the other API aborts the run on the worker executing it", async () => {
    const workflowId = await seedWorkflow(database, arrows(["in->g1->out"], { params: { delayMs: 60_000 } }));
    const runId = (await apis[1]!.admin.request(RunWorkflow, { workflowId, input: {} })).runWorkflow.run!.id;
    await waitFor(() => apis[0]!.admin.request(RunDetail, { id: runId }), (data) => data.run?.nodeRuns.some((node) => node.status === "RUNNING") === true, "g1 to start");

    const ownerPid = await pidOf(runId);
    const cancelled = await apis[0]!.admin.request(CancelRun, { id: runId });

    expect(cancelled.cancelRun.run?.status).toBe("CANCELLED");
    const owner = workers.find((worker) => worker.pid === ownerPid);
    expect(owner?.logs.some((line) => line["runId"] === runId && line["msg"] === "cancelling the run executed here")).toBe(true);
    const detail = await apis[1]!.admin.request(RunDetail, { id: runId });
    expect(detail.run?.events.at(-1)).toMatchObject({ type: "RUN_CANCELLED" });
    expect(detail.run?.nodeRuns.find((node) => node.nodeId === "g1")?.error?.code).toBe("RUN_CANCELLED");
  }, PROCESS_TEST_MS);

  /** SIGTERMs the worker executing the run and starts another in its place; `stopped`: its exit code. */
  const stopOwner = async (runId: string): Promise<{ owner: ApiProcess; stopped: Promise<number | string | null> }> => {
    const ownerPid = await pidOf(runId);
    const owner = workers.find((worker) => worker.pid === ownerPid);
    if (!owner) throw new Error(`run ${runId} is claimed by ${ownerPid}, not one of the workers`);
    workers = workers.filter((worker) => worker !== owner);
    replacements.push(startApiProcess("worker", processEnv(), adminKey).then((worker) => void workers.push(worker)));
    return { owner, stopped: owner.kill("SIGTERM").then(() => owner.exited) };
  };
  const logged = (process: ApiProcess, message: string, runId?: string) =>
    process.logs.some((line) => line["msg"] === message && (runId === undefined || line["runId"] === runId));

  test("a worker stopped by SIGTERM takes no more runs and lets a run that ends within its grace period finish", async () => {
    //  in ──▶ g1 ──▶ out  (offline echo model, 400 ms)
    const workflowId = await seedWorkflow(database, arrows(["in->g1->out"], { params: { delayMs: 400 } }));
    const runId = (await apis[0]!.admin.request(RunWorkflow, { workflowId, input: {} })).runWorkflow.run!.id;
    await waitFor(() => apis[0]!.admin.request(RunDetail, { id: runId }), (data) => data.run?.nodeRuns.some((node) => node.status === "RUNNING") === true, "g1 to start");
    const { owner, stopped } = await stopOwner(runId);
    await waitFor(async () => logged(owner, "stopping: this worker takes no more runs"), (yes) => yes, "the worker to stop taking runs");
    const later = await Promise.all([0, 1].map(async (k) => (await apis[k]!.admin.request(RunWorkflow, { workflowId, input: {} })).runWorkflow.run!.id));

    expect(await stopped).toBe(0);
    const run = await database.prisma.run.findUniqueOrThrow({ where: { id: runId }, include: { events: { orderBy: { seq: "asc" } } } });
    expect(run).toMatchObject({ status: "COMPLETED", attempt: 1, handovers: 0 });
    expect(run.events.map((event) => event.type)).not.toContain("RUN_RESUMED");
    const laterRuns = await waitFor(
      () => database.prisma.run.findMany({ where: { id: { in: later } }, select: { status: true, claimedBy: true } }),
      (rows) => rows.every((row) => row.status === "COMPLETED"),
      "the runs started after the SIGTERM to complete",
    );
    for (const row of laterRuns) expect(Number(row.claimedBy?.split(":")[1])).not.toBe(owner.pid);
  }, PROCESS_TEST_MS);

  test(`a worker stopped by SIGTERM hands a run still executing after ${GRACE_MS} ms to another worker: no terminal event, seqs continue after RUN_RESUMED, the subscriber sees exactly the stored seqs`, async () => {
    //  in ──▶ g1 ──▶ v1 ──▶ out  (offline echo models, 3 s each: v1 outlasts the grace period)
    const workflow = arrows(["in->g1->v1->out"], { params: { delayMs: 3_000 } });
    const workflowId = await seedWorkflow(database, workflow);
    const runId = (await apis[1]!.admin.request(RunWorkflow, { workflowId, input: {} })).runWorkflow.run!.id;
    const ws = apis[0]!.admin.ws();
    try {
      const followed = apis[0]!.admin.subscribe(ws, RunEvents, { runId, afterSeq: 0 });
      await waitFor(
        () => database.prisma.runEvent.findMany({ where: { runId, type: "NODE_STARTED" }, select: { nodeKey: true } }),
        (rows) => rows.some((row) => row.nodeKey === "v1"),
        "v1 to start",
      );
      const { owner, stopped } = await stopOwner(runId);
      expect(await stopped).toBe(0);
      expect(logged(owner, "handing the run over to another worker", runId)).toBe(true);

      const run = await waitFor(
        () => database.prisma.run.findUniqueOrThrow({ where: { id: runId }, include: { events: { orderBy: { seq: "asc" } } } }),
        (row) => row.status !== "RUNNING" && row.status !== "QUEUED",
        "the handed-over run to end",
      );
      const context = run.events.map((event) => `${event.seq} ${event.type} ${event.nodeKey ?? ""}`).join(", ");
      expect(run, context).toMatchObject({ status: "COMPLETED", attempt: 2, handovers: 1 });
      expect(Number(run.claimedBy?.split(":")[1]), context).not.toBe(owner.pid);
      expect(run.events.map((event) => event.seq), context).toEqual(run.events.map((_, index) => index + 1));
      const types = run.events.map((event) => event.type);
      expect(types.filter((type) => type === "RUN_RESUMED"), context).toHaveLength(1);
      expect(types, context).not.toContain("RUN_CANCELLED");
      expect(types, context).not.toContain("NODE_FAILED");
      const count = (type: string, node: string) => run.events.filter((event) => event.type === type && event.nodeKey === node).length;
      for (const node of workflow.nodes) expect(count("NODE_COMPLETED", node.id), `${node.id}: ${context}`).toBe(1);
      expect(count("NODE_STARTED", "g1"), context).toBe(1);
      expect(count("NODE_STARTED", "v1"), context).toBe(2);

      await followed.ended;
      expect(followed.failure).toBeNull();
      expect(followed.items.map((item) => item.runEvents.seq)).toEqual(run.events.map((event) => event.seq));
      expect(followed.items.map((item) => item.runEvents.type)).toEqual(types);
      expect(followed.items.find((item) => item.runEvents.type === "RUN_RESUMED")?.runEvents.attempt).toBe(2);
    } finally {
      await ws.dispose();
    }
  }, PROCESS_TEST_MS);

  test(`a caller's runs budget is shared by both APIs: exactly ${RUNS_PER_MINUTE} of 50 concurrent starts are accepted`, async () => {
    const workflowId = await seedWorkflow(database, arrows(["in->out"]));
    const created = await apis[0]!.admin.request(CreateApiKey, { input: { name: "budget", scopes: ["read", "run"] } });
    const clients = apis.map((api) => api.admin.withKey(created.createApiKey.key!));
    const results = await Promise.all(Array.from({ length: 50 }, (_, k) => clients[k % 2]!.request(RunWorkflow, { workflowId, input: {} })));
    const accepted = results.filter((result) => result.runWorkflow.run !== null);
    expect(accepted).toHaveLength(RUNS_PER_MINUTE);
    expect(results.filter((result) => result.runWorkflow.errors.some((error) => error.code === "RATE_LIMITED"))).toHaveLength(50 - RUNS_PER_MINUTE);
  }, PROCESS_TEST_MS);

  test("a Redis restart under load loses no run: every run completes with gapless seqs, and a subscriber catches up", async () => {
    //  in ──▶ g1 ──▶ v1 ──▶ out  (offline echo models, 500 ms each)
    const workflow = arrows(["in->g1->v1->out"], { params: { delayMs: 500 } });
    const workflowId = await seedWorkflow(database, workflow);
    const runIds = await Promise.all(Array.from({ length: 8 }, async (_, k) => (await apis[k % 2]!.admin.request(RunWorkflow, { workflowId, input: {} })).runWorkflow.run!.id));
    const ws = apis[0]!.admin.ws();
    try {
      const followed = apis[0]!.admin.subscribe(ws, RunEvents, { runId: runIds[0]!, afterSeq: 0 });
      await waitFor(() => database.prisma.run.count({ where: { id: { in: runIds }, status: "RUNNING" } }), (running) => running > 0, "runs to start");
      // The subscription is live (it has delivered) before Redis goes away.
      await followed.until((items) => items.length > 0);
      await redis.crash();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await redis.restart();
      const runs = await waitFor(
        () => database.prisma.run.findMany({ where: { id: { in: runIds } }, include: { events: { orderBy: { seq: "asc" } } } }),
        (rows) => rows.every((row) => row.status !== "QUEUED" && row.status !== "RUNNING"),
        "every run to end after the Redis restart",
      );
      for (const run of runs) {
        const context = `${run.id}: ${run.events.map((event) => `${event.seq} ${event.type} ${event.nodeKey ?? ""}`).join(", ")}`;
        expect(run.status, context).toBe("COMPLETED");
        expect(run.events.map((event) => event.seq), context).toEqual(run.events.map((_, index) => index + 1));
        for (const node of workflow.nodes) expect(run.events.filter((event) => event.type === "NODE_COMPLETED" && event.nodeKey === node.id), context).toHaveLength(1);
      }
      await followed.ended;
      const seqs = followed.items.map((item) => item.runEvents.seq);
      expect(seqs).toEqual(runs.find((run) => run.id === runIds[0])!.events.map((event) => event.seq));
    } finally {
      await ws.dispose();
    }
  }, PROCESS_TEST_MS);

  test(`kill -9 of the worker executing a run, ${KILLS} times at varied moments: every run resumes on another worker and completes, finished nodes are not executed again`, async () => {
    //  in ──▶ g1 ──▶ v1 ──▶ e1 ──▶ out, and in ──▶ g2 ──▶ e1  (offline echo models, 300 ms each)
    const workflow = arrows(["in->g1->v1->e1->out", "in->g2->e1"], { params: { delayMs: 300 } });
    const workflowId = await seedWorkflow(database, workflow);
    for (let kill = 0; kill < KILLS; kill += 1) {
      const runId = (await apis[kill % 2]!.admin.request(RunWorkflow, { workflowId, input: {} })).runWorkflow.run!.id;
      await waitFor(() => database.prisma.run.findUniqueOrThrow({ where: { id: runId } }), (run) => run.status === "RUNNING", "the run to start");
      // Varied moments: from right after RUN_STARTED to well into the second layer of nodes.
      await new Promise((resolve) => setTimeout(resolve, (kill * 67) % 900));
      const ownerPid = await pidOf(runId);
      const owner = workers.find((worker) => worker.pid === ownerPid);
      if (!owner) throw new Error(`run ${runId} is claimed by ${ownerPid}, not one of the workers`);
      await owner.kill("SIGKILL");
      workers = workers.filter((worker) => worker !== owner);
      replacements.push(startApiProcess("worker", processEnv(), adminKey).then((worker) => void workers.push(worker)));

      const run = await waitFor(
        () => database.prisma.run.findUniqueOrThrow({ where: { id: runId }, include: { events: { orderBy: { seq: "asc" } } } }),
        (row) => row.status !== "RUNNING" && row.status !== "QUEUED",
        `run ${kill + 1} to end after its worker was killed`,
      );
      const context = `kill ${kill + 1}: ${run.events.map((event) => `${event.seq} ${event.type} ${event.nodeKey ?? ""}`).join(", ")}`;
      expect(run.status, context).toBe("COMPLETED");
      expect(run.events.map((event) => event.seq), context).toEqual(run.events.map((_, index) => index + 1));
      const count = (type: string, node: string | null) => run.events.filter((event) => event.type === type && event.nodeKey === node).length;
      // One resumption per kill; on a loaded machine a worker that misses its lock renewals is taken
      // over too (and fenced off), which is one more resumption.
      const resumptions = count("RUN_RESUMED", null);
      expect(resumptions, context).toBe(run.attempt - 1);
      for (const node of workflow.nodes) {
        expect(count("NODE_COMPLETED", node.id), `${node.id} completed once; ${context}`).toBe(1);
        expect(count("NODE_STARTED", node.id), `${node.id} started at most once per execution; ${context}`).toBeLessThanOrEqual(1 + resumptions);
      }
      const resumed = run.events.findIndex((event) => event.type === "RUN_RESUMED");
      if (resumed >= 0) {
        const before = new Set(run.events.slice(0, resumed).filter((event) => event.type === "NODE_COMPLETED").map((event) => event.nodeKey));
        const startedAgain = run.events.slice(resumed).filter((event) => event.type === "NODE_STARTED" && before.has(event.nodeKey));
        expect(startedAgain, context).toEqual([]);
      }
    }
  }, PROCESS_TEST_MS * 3);
});
