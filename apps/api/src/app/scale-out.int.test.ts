import { randomBytes } from "node:crypto";
import { startRedisServer, type RedisServer } from "@weft/test-services";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startApiProcess, type ApiProcess } from "../testing/api-process.js";
import { acquirePostgres, openTestDatabase, releasePostgres, type TestDatabase } from "../testing/database.js";
import { seedWorkflow } from "../testing/app.js";
import { CancelRun, CreateApiKey, RunDetail, RunEvents, RunWorkflow } from "../testing/operations.js";
import { arrows } from "../testing/workflows.js";
import { expectPoisoned, expectResumedCleanly, RunLoad, runCallers, type EndedRun } from "../testing/run-load.js";
import { readCrashWatch } from "../modules/run/index.js";

/**
 * Two API processes and two worker processes, each its own Node process (`main.ts --role …`), meeting
 * through one PostgreSQL and one Redis: runs accepted by either API execute on a worker, events reach
 * subscribers of the other API, cancellation crosses processes, and a killed worker's run is taken over.
 */
const PROCESS_TEST_MS = 240_000;
/** The runs budget of each caller, counted in Redis across both API processes. */
const RUNS_PER_MINUTE = 40;
/** Times the busiest worker is killed (kill -9) while runs execute, each at another moment. */
const KILLS = 20;
/** How long the kill tests wait for one step before calling it a hang (slowness of a loaded machine is not a failure). */
const HANG_MS = 300_000;
/** How long a worker stopped by SIGTERM lets its runs finish before handing them over. */
const GRACE_MS = 1_500;
/** WEFT_RUN_MAX_ATTEMPTS (the default): crashes with the same node invocation in flight before a run fails. */
const MAX_ATTEMPTS = 3;
/**
 * Every worker of these tests runs with the poisoned offline provider (a node with `killWorker: true`
 * kills the process calling its model; otherwise the offline models as usual): see poison-provider.ts.
 */
const WORKER_ENTRY = "src/testing/poison-worker-main.ts";

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
    WEFT_RUN_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
    WEFT_SHUTDOWN_GRACE_MS: String(GRACE_MS),
  });

  const startWorker = () => startApiProcess("worker", processEnv(), adminKey, WORKER_ENTRY);

  beforeAll(async () => {
    [redis] = await Promise.all([startRedisServer(), acquirePostgres()]);
    database = await openTestDatabase("server");
    const env = processEnv();
    const started = await Promise.all([
      startApiProcess("api", env, adminKey),
      startApiProcess("api", env, adminKey),
      startWorker(),
      startWorker(),
      startWorker(),
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
  /** Polls until `done`; only a hang (nothing for `ms`, 60 s unless said) fails it, however slow the machine. */
  const waitFor = async <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, ms = 60_000): Promise<T> => {
    const deadline = Date.now() + ms;
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
    replacements.push(startWorker().then((worker) => void workers.push(worker)));
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
    const read = (runId: string) => database.prisma.run.findUniqueOrThrow({ where: { id: runId }, include: { events: { orderBy: { seq: "asc" } } } });
    for (let kill = 0; kill < KILLS; kill += 1) {
      const runId = (await apis[kill % 2]!.admin.request(RunWorkflow, { workflowId, input: {} })).runWorkflow.run!.id;
      await waitFor(() => read(runId), (run) => run.status !== "QUEUED", "the run to start", HANG_MS);
      // Varied moments: from right after RUN_STARTED to well into the second layer of nodes.
      await new Promise((resolve) => setTimeout(resolve, (kill * 67) % 900));
      // The worker holding it now (on a loaded machine a lapsed lock may have moved it, maybe to a fresh
      // worker not listed yet); none once the run has ended.
      const held = await waitFor(
        () => read(runId),
        (run) => run.status !== "RUNNING" || workers.some((worker) => worker.pid === Number(run.claimedBy?.split(":")[1])),
        "the run's worker to be one of ours",
        HANG_MS,
      );
      const owner = held.status === "RUNNING" ? workers.find((worker) => worker.pid === Number(held.claimedBy?.split(":")[1])) : undefined;
      if (owner) {
        await owner.kill("SIGKILL");
        workers = workers.filter((worker) => worker !== owner);
        replacements.push(startWorker().then((worker) => void workers.push(worker)));
      }
      const run = (await waitFor(() => read(runId), (row) => row.status !== "RUNNING" && row.status !== "QUEUED", `run ${kill + 1} to end after its worker was killed`, HANG_MS)) as EndedRun;
      // One kill per run: the crash rule cannot fail it, and takeovers from live workers (lapsed locks) count no crash.
      expectResumedCleanly(run, workflow.nodes.map((node) => node.id));
      expect(readCrashWatch(run.crashSuspects).crashes, `kill ${kill + 1}: ${JSON.stringify(run.crashSuspects)}`).toBeLessThanOrEqual(1);
    }
  }, PROCESS_TEST_MS * 5);

  test(`kill -9 of the busiest worker ${KILLS} times under load, each replaced by a fresh one: no run fails unless the same node invocation was in flight at each crash of its worker`, async () => {
    //  in ──▶ g1 ──▶ v1 ──▶ v2 ──▶ e1 ──▶ out  (offline echo models, 1.2 s each, as in the report)
    const workflow = arrows(["in->g1->v1->v2->e1->out"], { params: { delayMs: 1_200 } });
    const workflowId = await seedWorkflow(database, workflow);
    const load = new RunLoad(database, await runCallers(apis, 3), workflowId);
    const startups: number[] = [];
    const began = Date.now();
    await load.topUp(24);
    for (let kill = 0; kill < KILLS; kill += 1) {
      await load.topUp(12);
      // Kills closer together than a run lasts, at varied moments: a run may lose several workers in a row.
      await new Promise((resolve) => setTimeout(resolve, 1_000 + ((kill * 379) % 1_500)));
      const victim = await waitFor(
        async () => (workers.length >= 2 ? busiestWorker(load.runIds) : null),
        (worker) => worker !== null,
        "another live worker, and one executing a run",
        HANG_MS,
      );
      await victim!.kill("SIGKILL");
      workers = workers.filter((worker) => worker !== victim);
      const asked = Date.now();
      replacements.push(startWorker().then((worker) => void (workers.push(worker), startups.push(Date.now() - asked))));
    }
    const runs = await load.ended(HANG_MS);
    const failed = runs.filter((run) => run.status === "FAILED");
    const completed = runs.filter((run) => run.status === "COMPLETED");
    const crashedThrice = runs.filter((run) => run.attempt - 1 - run.handovers >= MAX_ATTEMPTS).length;
    console.info(
      `worker crashes: ${runs.length} runs, ${KILLS} kills, ${completed.length} completed, ${failed.length} failed ` +
        `(${failed.map((run) => `${run.error?.code}: ${run.error?.message}`).join("; ") || "none"}); ` +
        `${crashedThrice} runs saw their worker die ${MAX_ATTEMPTS} times or more (each one failed under the old rule); ` +
        `${Math.round((Date.now() - began) / 1000)} s, fresh workers listening after ${startups.map((ms) => Math.round(ms / 100) / 10).join(", ")} s`,
    );
    expect(completed.length + failed.length).toBe(runs.length);
    for (const run of failed) expectPoisoned(run, MAX_ATTEMPTS);
    for (const run of completed) expectResumedCleanly(run, workflow.nodes.map((node) => node.id));
  }, PROCESS_TEST_MS * 5);

  test(`a poison run (its model kills the worker executing it) fails RUN_ATTEMPTS_EXHAUSTED after ${MAX_ATTEMPTS} crashes with it in flight, naming it, and takes no other run with it`, async () => {
    //  in ──▶ g1 ──▶ v1 ──▶ out   (v1 kills its worker)
    const poisonId = await seedWorkflow(database, arrows(["in->g1->v1->out"], { params: { delayMs: 100 }, nodes: { v1: { params: { killWorker: true } } } }));
    //  in ──▶ g1 ──▶ v1 ──▶ e1 ──▶ out  (500 ms each)
    const innocent = arrows(["in->g1->v1->e1->out"], { params: { delayMs: 500 } });
    const innocentId = await seedWorkflow(database, innocent);
    // Every worker that dies is replaced, as an orchestrator would.
    let supervising = true;
    let deaths = 0;
    const supervise = (worker: ApiProcess) =>
      void worker.exited.then(() => {
        if (!supervising || !workers.includes(worker)) return;
        deaths += 1;
        workers = workers.filter((other) => other !== worker);
        replacements.push(startWorker().then((fresh) => void (workers.push(fresh), supervising && supervise(fresh))));
      });
    workers.forEach(supervise);
    try {
      const [caller] = await runCallers(apis, 1);
      const startedPoison = await caller!.request(RunWorkflow, { workflowId: poisonId, input: {} });
      expect(startedPoison.runWorkflow.errors).toEqual([]);
      const poison = startedPoison.runWorkflow.run!.id;
      const load = new RunLoad(database, [caller!], innocentId);
      await load.topUp(10);
      const [run] = await new RunLoad(database, [], poisonId, [poison]).ended(HANG_MS);
      const others = await load.ended(HANG_MS);
      console.info(`poison run: ${run!.status} ${run!.error?.code} after ${deaths} worker deaths; ${others.filter((other) => other.status === "COMPLETED").length} of ${others.length} other runs completed`);
      expect(run).toMatchObject({ status: "FAILED", error: { code: "RUN_ATTEMPTS_EXHAUSTED", message: expect.stringContaining('node "v1"') } });
      expect(run!.crashSuspects).toEqual({ examined: expect.any(Number), crashes: MAX_ATTEMPTS, suspects: [{ nodeId: "v1", invocation: "" }] });
      expectPoisoned(run!, MAX_ATTEMPTS);
      // Its first crash may go unseen (a start stored after its node began), never more than that.
      expect(deaths).toBeGreaterThanOrEqual(MAX_ATTEMPTS);
      expect(deaths).toBeLessThanOrEqual(MAX_ATTEMPTS + 1);
      expect(others.map((other) => other.status)).toEqual(others.map(() => "COMPLETED"));
      for (const other of others) expectResumedCleanly(other, innocent.nodes.map((node) => node.id));
    } finally {
      supervising = false;
    }
  }, PROCESS_TEST_MS * 4);

  /** The worker holding the most running runs of `runIds`, or null while none runs. */
  async function busiestWorker(runIds: readonly string[]): Promise<ApiProcess | null> {
    const running = await database.prisma.run.findMany({ where: { id: { in: [...runIds] }, status: "RUNNING" }, select: { claimedBy: true } });
    const held = new Map<number, number>();
    for (const { claimedBy } of running) held.set(Number(claimedBy?.split(":")[1]), (held.get(Number(claimedBy?.split(":")[1])) ?? 0) + 1);
    const ranked = workers.filter((worker) => held.has(worker.pid)).sort((a, b) => held.get(b.pid)! - held.get(a.pid)!);
    return ranked[0] ?? null;
  }
});
