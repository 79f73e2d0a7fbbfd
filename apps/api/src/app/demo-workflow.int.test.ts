import { afterEach, expect, test } from "vitest";
import { startTestApp, type TestApp } from "../testing/app.js";
import { describeEachDatabase } from "../testing/database.js";
import { RunEvents, RunWorkflow } from "../testing/operations.js";
import { DEMO_WORKFLOW_NAME } from "./demo-workflow.js";

describeEachDatabase(
  "the seeded demo workflow",
  (suite) => {
    let api: TestApp | undefined;
    afterEach(async () => {
      await api?.close();
      api = undefined;
    });

    test("a new user's first run of the demo completes without a single warning", async () => {
      // question ──▶ draft ──▶ check ──▶ merge ──▶ answer, notes ──▶ merge; default prompts hold {context}
      api = await startTestApp(suite.db(), { env: { WEFT_SEED_DEMO: "true" } });
      const demo = await suite.db().prisma.workflow.findFirstOrThrow({ where: { name: DEMO_WORKFLOW_NAME } });
      expect(demo.knowledgeBase).toBeNull();
      const { runWorkflow } = await api.admin.request(RunWorkflow, { workflowId: demo.id });
      expect(runWorkflow.errors).toEqual([]);
      const ws = api.admin.ws();
      const stream = api.admin.subscribe(ws, RunEvents, { runId: runWorkflow.run!.id, afterSeq: 0 });
      await stream.ended;
      await ws.dispose();
      const events = stream.items.map((item) => item.runEvents);
      expect(events.at(-1)?.type).toBe("RUN_COMPLETED");
      expect(events.filter((event) => event.type === "WARNING")).toEqual([]);
    });
  },
  { modes: ["embedded"] },
);
