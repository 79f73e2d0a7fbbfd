import { randomUUID } from "node:crypto";
import { expect, test } from "vitest";
import { describeEachDatabase } from "../../testing/database.js";
import { seedWorkflow } from "../../testing/app.js";
import { arrows } from "../../testing/workflows.js";
import { DraftSnapshots } from "../workflow/index.js";
import { insertRunRow, insertRunRowIf, isForeignKeyViolation, type NewRun } from "./run-insert.js";

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

describeEachDatabase("storing a run of a draft read without its lock", (suite) => {
  /** What every change to a draft does first, in its own transaction (runGraphEdit): bump the version. */
  const bump = (workflowId: string) => suite.db().prisma.$executeRaw`UPDATE "Workflow" SET "version" = "version" + 1 WHERE id = ${workflowId}`;

  test("the run is stored while the draft is at the snapshot's version, and nothing once a change has committed", async () => {
    const db = suite.db().prisma;
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->out"]));
    const drafts = new DraftSnapshots();
    const snapshot = (await drafts.read(db, workflowId))!;
    expect(snapshot.workflow.nodes.map((node) => node.id)).toEqual(["in", "out"]);
    const stored = await insertRunRowIf(db, { ...newRun(workflowId), editVersion: snapshot.editVersion }, snapshot.guard);
    expect(stored && (await db.run.findUniqueOrThrow({ where: { id: stored.id } }))).toEqual(stored);

    await bump(workflowId);
    expect(await insertRunRowIf(db, newRun(workflowId), snapshot.guard)).toBeNull();
    expect(await db.run.count()).toBe(1);
    expect(await db.nodeRun.count()).toBe(2);
    // The next read has the new version and reads the graph again.
    const next = (await drafts.read(db, workflowId))!;
    expect(next.editVersion).toBe(snapshot.editVersion + 1);
    expect(next.workflow).not.toBe(snapshot.workflow);
    expect(next.workflow).toEqual(snapshot.workflow);
    expect((await drafts.read(db, workflowId))!.workflow).toBe(next.workflow);
  });

  test("a kept draft is served without a read only for the edit version its row shows, with a guard for that version", async () => {
    const db = suite.db().prisma;
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->out"]));
    const drafts = new DraftSnapshots();
    expect(drafts.kept(workflowId, 0)).toBeNull();
    const read = (await drafts.read(db, workflowId))!;
    const kept = drafts.kept(workflowId, read.editVersion)!;
    expect(kept.workflow).toBe(read.workflow);
    expect(drafts.kept(workflowId, read.editVersion + 1)).toBeNull();
    await bump(workflowId);
    expect(await insertRunRowIf(db, newRun(workflowId), kept.guard)).toBeNull();
  });

  test("a draft whose workflow is gone reads as null, and its snapshot's guard stores nothing", async () => {
    const db = suite.db().prisma;
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->out"]));
    const drafts = new DraftSnapshots();
    const snapshot = (await drafts.read(db, workflowId))!;
    await db.workflow.delete({ where: { id: workflowId } });
    expect(await drafts.read(db, workflowId)).toBeNull();
    expect(await insertRunRowIf(db, newRun(workflowId), snapshot.guard)).toBeNull();
    expect(await db.run.count()).toBe(0);
  });
});

describeEachDatabase(
  "a run of a draft read without its lock, meeting a change in progress",
  (suite) => {
    test("waits for the change holding the workflow's row: stores nothing if it commits, the run if it rolls back", async () => {
      const db = suite.db().prisma;
      const workflowId = await seedWorkflow(suite.db(), arrows(["in->out"]));
      /** A change holding the workflow's row (its version bumped, as runGraphEdit does) while a guarded insert waits for it. */
      const insertDuring = async (outcome: "commit" | "roll back") => {
        const snapshot = (await new DraftSnapshots().read(db, workflowId))!;
        let insert: Promise<unknown> | undefined;
        await db
          .$transaction(async (tx) => {
            await tx.$executeRaw`UPDATE "Workflow" SET "version" = "version" + 1 WHERE id = ${workflowId}`;
            insert = insertRunRowIf(db, newRun(workflowId), snapshot.guard);
            await waitForLockWaiter(suite.db().raw);
            if (outcome === "roll back") throw new Error("the change was refused");
          })
          .catch(() => undefined);
        return insert;
      };
      expect(await insertDuring("commit")).toBeNull();
      expect(await db.run.count()).toBe(0);
      expect(await insertDuring("roll back")).not.toBeNull();
      expect(await db.run.count()).toBe(1);
    });
  },
  { modes: ["server"] },
);

/** Until another session of this database waits for a lock (the insert, queued on the workflow's row). */
async function waitForLockWaiter(raw: { query<Row>(sql: string): Promise<{ rows: Row[] }> }): Promise<void> {
  for (let attempt = 0; attempt < 3_000; attempt += 1) {
    const { rows } = await raw.query<{ waiting: number }>(
      `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if ((rows[0]?.waiting ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("no session waited for the workflow's row lock");
}
