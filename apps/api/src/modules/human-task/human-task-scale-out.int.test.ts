import { randomBytes } from "node:crypto";
import { startRedisServer, type RedisServer } from "@weft/test-services";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startApiProcess, type ApiProcess } from "../../testing/api-process.js";
import { acquirePostgres, openTestDatabase, releasePostgres, type TestDatabase } from "../../testing/database.js";
import { approvalDocument } from "../../testing/workflows.js";

/**
 * People in the loop across processes (issue 25): one API process and worker processes (`main.ts --role
 * …`, each its own Node process) on one PostgreSQL and one Redis. Tasks are completed through the API
 * process while workers come and go: a run parked by one worker goes on on another after the first was
 * killed; a task completed while no worker is up waits in the queue for the next one; a timeout due while
 * no worker is up fires (once) on the worker that comes next.
 */
const PROCESS_TEST_MS = 300_000;


const IMPORT = "mutation ($document: JSON!) { importWorkflow(document: $document) { workflow { id } errors { code message } } }";
const RUN = "mutation ($id: ID!) { runWorkflow(workflowId: $id) { run { id } errors { code message } } }";
const COMPLETE = "mutation ($id: ID!, $action: String!) { completeHumanTask(id: $id, input: { action: $action }) { task { status } errors { code } } }";

describe("human tasks with API and worker processes on Redis", () => {
  let redis: RedisServer;
  let database: TestDatabase;
  const adminKey = `weft_test_${randomBytes(24).toString("base64url")}`;
  let api: ApiProcess;
  const workers = new Set<ApiProcess>();

  const env = () => ({ DATABASE_URL: database.location, REDIS_URL: redis.url, WEFT_QUEUE_LOCK_MS: "1000", WEFT_SHUTDOWN_GRACE_MS: "500" });
  const startWorker = async () => {
    const worker = await startApiProcess("worker", env(), adminKey);
    workers.add(worker);
    return worker;
  };
  const stopWorker = async (worker: ApiProcess, signal: NodeJS.Signals) => {
    await worker.kill(signal);
    workers.delete(worker);
  };

  beforeAll(async () => {
    [redis] = await Promise.all([startRedisServer(), acquirePostgres()]);
    database = await openTestDatabase("server");
    api = await startApiProcess("api", env(), adminKey);
  }, PROCESS_TEST_MS);

  afterAll(async () => {
    await Promise.all([api, ...workers].map((process) => process?.kill("SIGKILL")));
    await database?.close();
    await releasePostgres();
    await redis?.stop();
  }, 60_000);

  async function start(document: unknown, runs: number): Promise<string[]> {
    const { importWorkflow } = await api.admin.request<{ importWorkflow: { workflow: { id: string } | null; errors: unknown[] } }, { document: unknown }>(IMPORT, { document });
    expect(importWorkflow.errors).toEqual([]);
    const ids: string[] = [];
    for (let index = 0; index < runs; index += 1) {
      const { runWorkflow } = await api.admin.request<{ runWorkflow: { run: { id: string } | null; errors: unknown[] } }, { id: string }>(RUN, { id: importWorkflow.workflow!.id });
      expect(runWorkflow.errors).toEqual([]);
      ids.push(runWorkflow.run!.id);
    }
    return ids;
  }

  /** Polls the database until every run has the status (a hang is the test's timeout). */
  async function until(runIds: string[], status: string): Promise<void> {
    for (;;) {
      const runs = await database.prisma.run.findMany({ where: { id: { in: runIds } }, select: { status: true } });
      if (runs.every((run) => run.status === status)) return;
      const ended = runs.find((run) => ["COMPLETED", "FAILED", "CANCELLED"].includes(run.status) && run.status !== status);
      if (ended) throw new Error(`a run ended ${ended.status}, not ${status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function complete(runIds: string[], action: string): Promise<void> {
    const tasks = await database.prisma.humanTask.findMany({ where: { runId: { in: runIds }, status: "OPEN" } });
    expect(tasks).toHaveLength(runIds.length);
    for (const task of tasks) {
      const { completeHumanTask } = await api.admin.request<{ completeHumanTask: { task: { status: string } | null; errors: unknown[] } }, { id: string; action: string }>(COMPLETE, { id: task.id, action });
      expect(completeHumanTask).toEqual({ task: { status: "COMPLETED" }, errors: [] });
    }
  }

  const resultsOf = async (runIds: string[]) => (await database.prisma.run.findMany({ where: { id: { in: runIds } }, select: { result: true } })).map((run) => run.result);
  const eventsOf = async (runId: string) =>
    (await database.prisma.runEvent.findMany({ where: { runId }, orderBy: { seq: "asc" }, select: { type: true, payload: true } })).map((event) => ({
      type: event.type,
      nodeId: (event.payload as { nodeId?: string }).nodeId ?? null,
    }));

  test(
    "runs parked by one worker go on on another after it was killed, and a task completed with no worker up waits for the next one",
    async () => {
      const first = await startWorker();
      const runIds = await start(approvalDocument("across workers"), 3);
      await until(runIds, "WAITING");
      await stopWorker(first, "SIGKILL");
      const second = await startWorker();
      await complete(runIds, "approve");
      await until(runIds, "COMPLETED");
      expect(await resultsOf(runIds)).toEqual(runIds.map(() => "published: The sky is blue."));
      for (const runId of runIds) {
        const events = await eventsOf(runId);
        expect(events.filter((event) => event.type === "NODE_STARTED" && event.nodeId === "review")).toHaveLength(1);
        expect(events.filter((event) => event.type === "HUMAN_TASK_COMPLETED")).toHaveLength(1);
      }

      const later = await start(approvalDocument("no worker up"), 2);
      await until(later, "WAITING");
      await stopWorker(second, "SIGTERM");
      await complete(later, "reject");
      // Nobody executes runs now: the completed tasks' runs wait in the queue, RUNNING or QUEUED, not lost.
      const pending = await database.prisma.run.findMany({ where: { id: { in: later } }, select: { status: true } });
      expect(pending.every((run) => run.status !== "COMPLETED" && run.status !== "FAILED")).toBe(true);
      await startWorker();
      await until(later, "COMPLETED");
      expect(await resultsOf(later)).toEqual(["rejected", "rejected"]);
    },
    PROCESS_TEST_MS,
  );

  test(
    "a timeout due while no worker is up fires once on the worker that comes next",
    async () => {
      await Promise.all([...workers].map((worker) => stopWorker(worker, "SIGTERM")));
      await startWorker();
      const [runId] = await start(approvalDocument("timeout across workers", { timeoutSeconds: 3, onTimeout: "reject" }), 1);
      await until([runId!], "WAITING");
      await Promise.all([...workers].map((worker) => stopWorker(worker, "SIGKILL")));
      const task = await database.prisma.humanTask.findFirstOrThrow({ where: { runId: runId! } });
      // Wait past the deadline with no worker: the API process schedules timeouts but does not fire them.
      while (Date.now() < task.expiresAt!.getTime() + 1_000) await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await database.prisma.humanTask.findUniqueOrThrow({ where: { id: task.id } })).status).toBe("OPEN");
      await Promise.all([startWorker(), startWorker()]);
      await until([runId!], "COMPLETED");
      expect(await resultsOf([runId!])).toEqual(["rejected"]);
      expect(await database.prisma.humanTask.findUniqueOrThrow({ where: { id: task.id } })).toMatchObject({ status: "EXPIRED", action: "reject" });
      expect((await eventsOf(runId!)).filter((event) => event.type === "HUMAN_TASK_COMPLETED")).toHaveLength(1);
    },
    PROCESS_TEST_MS,
  );
});
