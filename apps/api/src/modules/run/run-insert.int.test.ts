import { randomUUID } from "node:crypto";
import { expect, test } from "vitest";
import { describeEachDatabase } from "../../testing/database.js";
import { seedWorkflow } from "../../testing/app.js";
import { arrows } from "../../testing/workflows.js";
import { insertRunRow, isForeignKeyViolation, type NewRun } from "./run-insert.js";

const newRun = (workflowId: string): NewRun => ({
  workflowId,
  request: { inputs: { in: "hi" } },
  snapshot: { workflow: { name: "w", nodes: [] }, inputs: { in: "hi" } },
  versionId: null,
  versionNumber: null,
  editVersion: 3,
  rerunOfId: null,
  apiKeyId: null,
  threadId: null,
  trigger: { id: "a-trigger", kind: "WEBHOOK" },
  nodes: [
    { id: "in", type: "input" },
    { id: "out", type: "output" },
  ],
});

describeEachDatabase("storing a new run", (suite) => {
  test("the run and a PENDING node run per top-level node are stored in one statement, and the returned row is the stored one", async () => {
    const db = suite.db().prisma;
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->out"]));
    const returned = await insertRunRow(db, newRun(workflowId));
    expect(await db.run.findUniqueOrThrow({ where: { id: returned.id } })).toEqual(returned);
    const nodeRuns = await db.nodeRun.findMany({ where: { runId: returned.id }, orderBy: { nodeKey: "asc" } });
    expect(nodeRuns.map((row) => [row.nodeKey, row.invocation, row.nodeType, row.status, row.inputs])).toEqual([
      ["in", "", "input", "PENDING", []],
      ["out", "", "output", "PENDING", []],
    ]);
  });

  test("a run of a workflow that is gone is refused as a foreign key violation, and nothing is stored", async () => {
    const db = suite.db().prisma;
    const error = await insertRunRow(db, newRun(randomUUID())).catch((caught: unknown) => caught);
    expect(isForeignKeyViolation(error)).toBe(true);
    expect(await db.run.count()).toBe(0);
    expect(await db.nodeRun.count()).toBe(0);
  });
});
