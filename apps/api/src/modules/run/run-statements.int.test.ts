import { builtInRegistry, parseWorkflowValue } from "@weft/engine";
import { afterEach, expect, test, vi } from "vitest";
import type { AuthInfo } from "../../auth/auth-info.js";
import { PLANNED_MARK } from "../../db/planned-statements.js";
import { describeEachDatabase } from "../../testing/database.js";
import { loggingDatabase } from "../../testing/statement-log.js";
import { startTestApp, seedWorkflow, type TestApp } from "../../testing/app.js";
import { RunWorkflow } from "../../testing/operations.js";
import { approvalDocument, arrows } from "../../testing/workflows.js";

/**
 * The SQL statements one run costs, from runWorkflow to its end, counted from Prisma's query events and
 * the raw handle's queries (the event batches go straight to the driver):
 * every statement is a round trip and, on the embedded database, CPU time of the API's own thread
 * (docs/benchmarks.md, api-throughput). A change that adds statements to every run fails here.
 */

/**
 * Plans: the embedded database prepares the run path's statements once and keeps the generic plan it chose
 * then, on nearly empty tables without statistics (PGlite runs no autovacuum). A plan that reaches a run
 * or a task through a status index reads every entry of that status — never vacuumed, one for every
 * earlier version of every run — on each claim, event batch and parking, so every run slowed as runs
 * waited for people (status-check.ts). Here the generic plans of every prepared statement of a run with
 * a human step and of a plain run, taken on the tables as they are then, must find their rows by key.
 */

const ADMIN: AuthInfo = { keyId: null, scopes: new Set(["admin"]), authenticated: true };

const KINDS: [string, RegExp][] = [
  ["api key", /FROM "public"\."ApiKey"/],
  ["latest version", /FROM "(public"\.")?WorkflowVersion"/],
  ["workflow lock", /FROM "Workflow" w WHERE w\.id = \$\d+ FOR UPDATE/],
  ["active draft run", /SELECT "public"\."Run"\."id" FROM "public"\."Run" WHERE \("public"\."Run"\."workflowId" = \$\d+ AND "public"\."Run"\."versionId" IS NULL/],
  ["draft nodes", /FROM "public"\."WorkflowNode"/],
  ["draft edges", /FROM "public"\."WorkflowEdge"/],
  ["run insert", /^(\/\* weft:planned \*\/)?\s*WITH run AS \(INSERT INTO "Run"/],
  ["draft row", /^(\/\* weft:planned \*\/)?\s*SELECT w\.\* FROM "Workflow" w WHERE w\.id = \$\d+\s*$/],
  ["claim", /^(\/\* weft:planned \*\/)?\s*UPDATE "Run"( AS run)? SET attempt = (run\.)?attempt \+ 1/],
  ["event batch", /^(\/\* weft:planned \*\/)?\s*WITH fence AS/],
  ["commit", /COMMIT/],
];

function kindOf(statement: string): string {
  return KINDS.find(([, pattern]) => pattern.test(statement))?.[0] ?? `other: ${statement.replace(/\s+/g, " ").slice(0, 120)}`;
}

function countKinds(statements: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const statement of statements) counts[kindOf(statement)] = (counts[kindOf(statement)] ?? 0) + 1;
  return counts;
}

describeEachDatabase("statements of one run", (suite) => {
  let api: TestApp | undefined;
  let logging: ReturnType<typeof loggingDatabase> | undefined;
  afterEach(async () => {
    await api?.close();
    await logging?.close();
    api = undefined;
    logging = undefined;
  });

  /** The statements of the last of three runs (the first ones warm the caches), once its worker is done. */
  async function statementsOfOneRun(publish: boolean): Promise<string[]> {
    logging = loggingDatabase(suite.db());
    const { database, statements } = logging;
    api = await startTestApp(database);
    // in ──▶ g1 (offline echo) ──▶ v1 (offline echo) ──▶ out, as the api-throughput benchmark runs it
    const workflowId = await seedWorkflow(database, arrows(["in->g1->v1->out"]));
    if (publish) {
      const published = await api.app.services.versions.publish(workflowId, null, { keyId: null, scopes: new Set(["admin"]), authenticated: true });
      expect(published.ok).toBe(true);
    }
    const runOnce = async () => {
      const { runWorkflow } = await api!.admin.request(RunWorkflow, { workflowId, input: { inputs: [{ nodeId: "in", content: "hi" }] } });
      expect(runWorkflow.errors).toEqual([]);
      // The run was queued before the mutation answered; the queue is empty again once its worker is done.
      await vi.waitFor(() => expect(api!.app.services.runs.queue.stats()).toEqual({ queued: 0, running: 0 }), { timeout: 20_000, interval: 5 });
      const stored = await suite.db().prisma.run.findUniqueOrThrow({ where: { id: runWorkflow.run!.id } });
      expect(stored.status).toBe("COMPLETED");
    };
    await runOnce();
    await runOnce();
    statements.length = 0;
    await runOnce();
    return [...statements];
  }

  test("a run of a published version costs one insert, one claim and one write per event batch", async () => {
    const counts = countKinds(await statementsOfOneRun(true));
    const { ["event batch"]: batches = 0, ...rest } = counts;
    expect(rest).toEqual({ "latest version": 1, "run insert": 1, claim: 1 });
    // A batch closes at each node's result (four nodes) and at the terminal event.
    expect(batches).toBeGreaterThan(0);
    expect(batches).toBeLessThanOrEqual(5);
  });

  test("a run of an unchanged draft costs what a published version's does: the read of the latest version also reads the draft's edit version, whose graph is kept, and the insert is guarded by it (no transaction)", async () => {
    const counts = countKinds(await statementsOfOneRun(false));
    const { ["event batch"]: batches = 0, ...rest } = counts;
    expect(rest).toEqual({ "latest version": 1, "run insert": 1, claim: 1 });
    expect(batches).toBeGreaterThan(0);
    expect(batches).toBeLessThanOrEqual(5);
  });

  async function ended(runId: string, status: string) {
    await vi.waitFor(async () => expect((await suite.db().prisma.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe(status), { timeout: 20_000, interval: 10 });
  }

  // EXPLAIN (GENERIC_PLAN) needs PostgreSQL 16 (PGlite is 17); the server keeps no plan across the adapter's statements.
  test.runIf(suite.mode === "embedded")("a run that waits for a person and a plain run reach their rows by key, never through a status index, in every plan kept", async () => {
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
});
