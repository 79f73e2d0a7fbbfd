import { expect, test } from "vitest";
import { describeEachDatabase, type TestDatabase } from "../../testing/database.js";
import { runToEnd, seedWorkflow, startTestApp } from "../../testing/app.js";
import { CreateApiKey, DeleteRun, RunDetail, Runs, RunWorkflow } from "../../testing/operations.js";
import { arrows } from "../../testing/workflows.js";
import { deleteFinishedRun } from "./run-deletion.js";

const STATUS_FEED = `subscription { runStatusChanged { runId status deleted } }`;
const DAY_MS = 86_400_000;

/** Everything stored under a run, and the links others hold to it. */
async function storedFor(db: TestDatabase, runId: string) {
  const [runs, events, nodeRuns, messages, reruns] = await Promise.all([
    db.prisma.run.count({ where: { id: runId } }),
    db.prisma.runEvent.count({ where: { runId } }),
    db.prisma.nodeRun.count({ where: { runId } }),
    db.prisma.threadMessage.count({ where: { runId } }),
    db.prisma.run.count({ where: { rerunOfId: runId } }),
  ]);
  return { runs, events, nodeRuns, messages, reruns };
}

describeEachDatabase("deleting runs", (suite) => {
  test("deleteRun removes a finished run with everything it stored, refuses an active one with RUN_ACTIVE, and runStatusChanged tells dashboards", async () => {
    const api = await startTestApp(suite.db());
    try {
      //  in ──▶ g1 ──▶ out
      const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"]));
      const slowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"], { params: { delayMs: 60_000 } }));
      const runId = await runToEnd(api.admin, workflowId);
      const kept = await runToEnd(api.admin, workflowId);
      const rerun = (await api.admin.execute(`mutation ($id: ID!) { rerunRun(id: $id) { run { id } } }`, { id: runId })).data as { rerunRun: { run: { id: string } } };
      // A thread message the run added (its turn): it stays in the thread without its link.
      const thread = await suite.db().prisma.thread.create({ data: { workflowId } });
      await suite.db().prisma.threadMessage.create({ data: { threadId: thread.id, seq: 1, role: "USER", content: "question", runId } });
      const active = (await api.admin.request(RunWorkflow, { workflowId: slowId })).runWorkflow.run!.id;
      const before = await storedFor(suite.db(), runId);
      expect(before).toMatchObject({ runs: 1, messages: 1, reruns: 1 });
      expect(before.events).toBeGreaterThan(5);

      // Scope: write, like every deletion.
      const { createApiKey } = await api.admin.request(CreateApiKey, { input: { name: "runner", scopes: ["read", "run"] } });
      const runner = await api.admin.withKey(createApiKey.key!).execute(DeleteRun, { id: runId });
      expect(runner.errors.map((error) => error.extensions?.["code"])).toEqual(["FORBIDDEN"]);

      const refused = await api.admin.request(DeleteRun, { id: active });
      expect(refused.deleteRun).toEqual({ deletedRunId: null, errors: [expect.objectContaining({ code: "RUN_ACTIVE", path: ["id"] })] });
      expect((await storedFor(suite.db(), active)).runs).toBe(1);

      const ws = api.admin.ws();
      const feed = api.admin.subscribe(ws, STATUS_FEED);
      // The feed is live once it has delivered: a status change of the slow run's cancellation comes first.
      await api.admin.execute(`mutation ($id: ID!) { cancelRun(id: $id) { errors { code } } }`, { id: active });
      await feed.until((items) => items.length > 0);
      const listed = (await api.admin.request(Runs, { first: 100 })).runs.totalCount;

      const deleted = await api.admin.request(DeleteRun, { id: runId });
      expect(deleted.deleteRun).toEqual({ deletedRunId: runId, errors: [] });
      await feed.until((items) => items.some((item) => (item as { runStatusChanged: { deleted: boolean } }).runStatusChanged.deleted));
      feed.dispose();
      await ws.dispose();
      expect(feed.items.at(-1)).toEqual({ runStatusChanged: { runId, status: "COMPLETED", deleted: true } });

      expect(await storedFor(suite.db(), runId)).toEqual({ runs: 0, events: 0, nodeRuns: 0, messages: 0, reruns: 0 });
      expect(await suite.db().prisma.threadMessage.findMany({ where: { threadId: thread.id }, select: { content: true, runId: true } })).toEqual([{ content: "question", runId: null }]);
      expect((await api.admin.request(RunDetail, { id: runId })).run).toBeNull();
      expect((await api.admin.request(Runs, { first: 100 })).runs.totalCount).toBe(listed - 1);
      const rerunRow = await suite.db().prisma.run.findUniqueOrThrow({ where: { id: rerun.rerunRun.run.id }, select: { rerunOfId: true } });
      expect(rerunRow.rerunOfId).toBeNull();
      expect((await storedFor(suite.db(), kept)).events).toBe(before.events);

      // Again, or an id that is no run's: NOT_FOUND.
      for (const id of [runId, "not-a-run"]) {
        expect((await api.admin.request(DeleteRun, { id })).deleteRun.errors.map((error) => error.code)).toEqual(["NOT_FOUND"]);
      }
    } finally {
      await api.close();
    }
  });

  test("a run with thousands of events and node runs is deleted a batch of rows per statement", async () => {
    const api = await startTestApp(suite.db());
    try {
      const runId = await runToEnd(api.admin, await seedWorkflow(suite.db(), arrows(["in->g1->out"])));
      const lastSeq = (await suite.db().prisma.run.findUniqueOrThrow({ where: { id: runId } })).lastSeq;
      await suite.db().prisma.runEvent.createMany({
        data: Array.from({ length: 5_000 }, (_, index) => ({ runId, seq: lastSeq + 1 + index, type: "WARNING", payload: { code: "X" } })),
      });
      await suite.db().prisma.nodeRun.createMany({
        data: Array.from({ length: 3_000 }, (_, index) => ({ runId, nodeKey: "g1", invocation: `m[${index}]`, nodeType: "generation" })),
      });
      expect(await deleteFinishedRun(suite.db().prisma, runId, 700)).toEqual({ deleted: expect.objectContaining({ runId, status: "COMPLETED" }) });
      expect(await storedFor(suite.db(), runId)).toEqual({ runs: 0, events: 0, nodeRuns: 0, messages: 0, reruns: 0 });
    } finally {
      await api.close();
    }
  });

  test("the maintenance sweep deletes finished runs older than WEFT_RUN_RETENTION_DAYS and keeps younger and active ones", async () => {
    const api = await startTestApp(suite.db(), { env: { WEFT_RUN_RETENTION_DAYS: "30", WEFT_SWEEP_SECONDS: "1" } });
    try {
      const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"]));
      const slowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"], { params: { delayMs: 60_000 } }));
      const old = [await runToEnd(api.admin, workflowId), await runToEnd(api.admin, workflowId)];
      const young = await runToEnd(api.admin, workflowId);
      const oldActive = (await api.admin.request(RunWorkflow, { workflowId: slowId })).runWorkflow.run!.id;
      await suite.db().prisma.run.updateMany({ where: { id: { in: [...old, oldActive] } }, data: { createdAt: new Date(Date.now() - 40 * DAY_MS) } });
      await suite.db().prisma.run.update({ where: { id: young }, data: { createdAt: new Date(Date.now() - 20 * DAY_MS) } });

      const deadline = Date.now() + 60_000;
      while ((await suite.db().prisma.run.count({ where: { id: { in: old } } })) > 0) {
        if (Date.now() > deadline) throw new Error("the sweep did not delete the old runs within a minute");
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      for (const id of old) expect(await storedFor(suite.db(), id)).toEqual({ runs: 0, events: 0, nodeRuns: 0, messages: 0, reruns: 0 });
      expect((await storedFor(suite.db(), young)).runs).toBe(1);
      expect((await suite.db().prisma.run.findUniqueOrThrow({ where: { id: oldActive } })).status).toBe("RUNNING");
      expect((await api.admin.request(Runs, { first: 100 })).runs.totalCount).toBe(await suite.db().prisma.run.count());
      await api.admin.execute(`mutation ($id: ID!) { cancelRun(id: $id) { errors { code } } }`, { id: oldActive });
    } finally {
      await api.close();
    }
  });
});
