import { afterEach, expect, test } from "vitest";
import { describeEachDatabase } from "../../testing/database.js";
import { seedWorkflow, startTestApp, type TestApp } from "../../testing/app.js";
import { CancelRun, RunEvents, RunWorkflow } from "../../testing/operations.js";
import { arrows } from "../../testing/workflows.js";

describeEachDatabase(
  "run lines in the service's logs",
  (suite) => {
    let api: TestApp | undefined;
    afterEach(async () => {
      await api?.close();
      api = undefined;
    });

    async function runToEnd(workflowId: string): Promise<string> {
      const { runWorkflow } = await api!.admin.request(RunWorkflow, { workflowId });
      const ws = api!.admin.ws();
      await api!.admin.subscribe(ws, RunEvents, { runId: runWorkflow.run!.id, afterSeq: 0 }).ended;
      await ws.dispose();
      return runWorkflow.run!.id;
    }

    test("a run that completes and one that fails each leave one JSON line with their status, duration and error code", async () => {
      // in ──▶ g1 (echo) ──▶ out          in ──▶ g1 (invalid-json) ──▶ out
      api = await startTestApp(suite.db(), { captureLogs: true, env: { WEFT_PARSE_REPAIR: "false" } });
      const completed = await runToEnd(await seedWorkflow(suite.db(), arrows(["in->g1->out"])));
      const failed = await runToEnd(await seedWorkflow(suite.db(), arrows(["in->g1->out"], { model: "invalid-json" })));
      const lines = (runId: string) => api!.logs.filter((line) => line["runId"] === runId && /^run (completed|failed|cancelled)$/.test(String(line["msg"])));
      expect(lines(completed)).toEqual([expect.objectContaining({ level: 30, msg: "run completed", status: "COMPLETED", durationMs: expect.any(Number) })]);
      expect(lines(failed)).toEqual([expect.objectContaining({ level: 40, msg: "run failed", status: "FAILED", errorCode: expect.any(String) })]);
    });

    const endLines = (runId: string) => api!.logs.filter((line) => line["runId"] === runId && /^run (completed|failed|cancelled)$/.test(String(line["msg"])));

    test("a run its worker cannot execute (its snapshot unreadable) ends FAILED with one line", async () => {
      api = await startTestApp(suite.db(), { captureLogs: true });
      const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"]));
      const run = await suite.db().prisma.run.create({ data: { workflowId, status: "QUEUED", request: {}, snapshot: { version: 1 } } });
      const ws = api.admin.ws();
      const stream = api.admin.subscribe(ws, RunEvents, { runId: run.id, afterSeq: 0 });
      api.app.services.runs.queue.enqueue(run.id);
      await stream.ended;
      await ws.dispose();
      expect(stream.items.map((item) => item.runEvents.type)).toEqual(["RUN_FAILED"]);
      expect(endLines(run.id)).toEqual([expect.objectContaining({ level: 40, msg: "run failed", status: "FAILED", errorCode: expect.any(String) })]);
    });

    test("a run cancelled while it waits for a worker and one cancelled while it executes each leave one line", async () => {
      // One run at a time: the second waits in the queue while the first executes g1 (a minute's delay).
      api = await startTestApp(suite.db(), { captureLogs: true, env: { WEFT_PROCESS_CONCURRENCY: "1" } });
      const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"], { params: { delayMs: 60_000 } }));
      const executing = (await api.admin.request(RunWorkflow, { workflowId })).runWorkflow.run!.id;
      const ws = api.admin.ws();
      const stream = api.admin.subscribe(ws, RunEvents, { runId: executing, afterSeq: 0 });
      await stream.until((items) => items.some((item) => item.runEvents.type === "NODE_STARTED" && item.runEvents.nodeId === "g1"));
      const waiting = (await api.admin.request(RunWorkflow, { workflowId })).runWorkflow.run!.id;
      expect((await api.admin.request(CancelRun, { id: waiting })).cancelRun.run?.status).toBe("CANCELLED");
      expect((await api.admin.request(CancelRun, { id: executing })).cancelRun.run?.status).toBe("CANCELLED");
      await stream.ended;
      await ws.dispose();
      for (const runId of [waiting, executing]) {
        expect(endLines(runId)).toEqual([expect.objectContaining({ level: 30, msg: "run cancelled", status: "CANCELLED", errorCode: "RUN_CANCELLED" })]);
      }
    });
  },
  { modes: ["embedded"] },
);
