import { afterEach, expect, test } from "vitest";
import { describeEachDatabase } from "../../testing/database.js";
import { seedWorkflow, startTestApp, type TestApp } from "../../testing/app.js";
import { RunEvents, RunWorkflow } from "../../testing/operations.js";
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
  },
  { modes: ["embedded"] },
);
