import { builtInRegistry, parseWorkflowValue } from "@weft/engine";
import { afterEach, expect, test, vi } from "vitest";
import type { AuthInfo } from "../../auth/auth-info.js";
import { PLANNED_MARK } from "../../db/planned-statements.js";
import { startTestApp, seedWorkflow, type TestApp } from "../../testing/app.js";
import { describeEachDatabase } from "../../testing/database.js";
import { loggingDatabase } from "../../testing/statement-log.js";
import { RunWorkflow } from "../../testing/operations.js";
import { approvalDocument, arrows } from "../../testing/workflows.js";

/**
 * The embedded database prepares the run path's statements once and keeps the generic plan it chose
 * then, on nearly empty tables without statistics (PGlite runs no autovacuum). A plan that reaches a run
 * or a task through a status index reads every entry of that status — never vacuumed, one for every
 * earlier version of every run — on each claim, event batch and parking, so every run slowed as runs
 * waited for people (status-check.ts). Here the generic plans of every prepared statement of a run with
 * a human step and of a plain run, taken on the tables as they are then, must find their rows by key.
 */

const ADMIN: AuthInfo = { keyId: null, scopes: new Set(["admin"]), authenticated: true };

describeEachDatabase(
  "plans of the run path's prepared statements",
  (suite) => {
    let api: TestApp | undefined;
    let logging: ReturnType<typeof loggingDatabase> | undefined;
    afterEach(async () => {
      await api?.close();
      await logging?.close();
      api = undefined;
      logging = undefined;
    });

    async function ended(runId: string, status: string) {
      await vi.waitFor(async () => expect((await suite.db().prisma.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe(status), { timeout: 20_000, interval: 10 });
    }

    test("a run that waits for a person and a plain run reach their rows by key, never through a status index, in every plan kept", async () => {
      logging = loggingDatabase(suite.db());
      api = await startTestApp(logging.database);
      const plainId = await seedWorkflow(logging.database, arrows(["in->g1->v1->out"]));
      const approval = parseWorkflowValue(approvalDocument("Plans"), { registry: builtInRegistry });
      if (!approval.ok) throw new Error(JSON.stringify(approval.issues));
      const approvalId = await seedWorkflow(logging.database, approval.workflow);

      const { runWorkflow: waiting } = await api.admin.request(RunWorkflow, { workflowId: approvalId });
      await ended(waiting.run!.id, "WAITING");
      const task = await suite.db().prisma.humanTask.findFirstOrThrow({ where: { runId: waiting.run!.id } });
      expect((await api.app.services.humanTasks!.complete(task.id, { action: "approve" }, ADMIN)).ok).toBe(true);
      await ended(waiting.run!.id, "COMPLETED");
      const { runWorkflow: plain } = await api.admin.request(RunWorkflow, { workflowId: plainId, input: { inputs: [{ nodeId: "in", content: "hi" }] } });
      await ended(plain.run!.id, "COMPLETED");

      const prepared = [...new Set(logging.statements.filter((statement) => statement.trimStart().startsWith(PLANNED_MARK)))];
      // The claim, the parking, the continuation, event batches with and without a task, the run inserts.
      expect(prepared.length).toBeGreaterThanOrEqual(6);
      const byIndex: string[] = [];
      for (const statement of prepared) {
        const { rows } = await suite.db().raw.script<{ "QUERY PLAN": string }>(`EXPLAIN (GENERIC_PLAN) ${statement}`);
        for (const { "QUERY PLAN": line } of rows) {
          const index = /Index (?:Only )?Scan (?:Backward )?(?:using|on) "?(\w+)"?/.exec(line)?.[1];
          if (index && /status/i.test(index)) byIndex.push(`${index}: ${statement.replace(/\s+/g, " ").slice(0, 100)}`);
        }
      }
      expect(byIndex).toEqual([]);
    });
  },
  // EXPLAIN (GENERIC_PLAN) needs PostgreSQL 16 (PGlite is 17); a server keeps no plans across statements of the adapter.
  { modes: ["embedded"] },
);
