import { expect, it } from "vitest";
import { refuse } from "../../errors/refusal.js";
import { userError } from "../../errors/user-error.type.js";
import { seedWorkflow } from "../../testing/app.js";
import { describeEachDatabase } from "../../testing/database.js";
import { arrows } from "../../testing/workflows.js";
import { withLockedDraft, withLockedWorkflow } from "./workflow-lock.js";

describeEachDatabase("the workflow lock", (suite) => {
  it("takes an edit's lock by bumping the version, stamps updatedAt in UTC as Prisma does, and a refusal undoes both", async () => {
    const { prisma } = suite.db();
    const created = await prisma.workflow.findUniqueOrThrow({ where: { id: await seedWorkflow(suite.db(), arrows(["in->g1->out"])) } });
    const bumped = await withLockedWorkflow(prisma, created.id, async (_tx, locked) => locked.row, { bumpVersion: true });
    expect(bumped.ok && bumped.value.version).toBe(created.version + 1);
    const stored = await prisma.workflow.findUniqueOrThrow({ where: { id: created.id } });
    expect(stored.version).toBe(created.version + 1);
    // A session time zone other than UTC would shift the stamp by hours; a few minutes' slack is only the clock.
    expect(Math.abs(stored.updatedAt.getTime() - Date.now())).toBeLessThan(5 * 60_000);
    expect(stored.updatedAt.getTime()).toBeGreaterThanOrEqual(created.updatedAt.getTime());

    const refused = await withLockedWorkflow(prisma, created.id, async () => refuse(userError("VALIDATION_FAILED", "no")), { bumpVersion: true });
    expect(refused.ok).toBe(false);
    expect((await prisma.workflow.findUniqueOrThrow({ where: { id: created.id } })).version).toBe(created.version + 1);
  });

  it("hands a locked draft's work the graph as stored and the edit version it is at, and rolls back what a refusal wrote", async () => {
    // in ──▶ g1 ──▶ out
    const { prisma } = suite.db();
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"]));
    const { version } = await prisma.workflow.findUniqueOrThrow({ where: { id: workflowId } });
    const read = await withLockedDraft(prisma, workflowId, async (_tx, draft) => draft);
    expect(read.ok && read.value.editVersion).toBe(version);
    expect(read.ok && read.value.workflow.edges.map((edge) => [edge.source, edge.target])).toEqual([["in", "g1"], ["g1", "out"]]);

    const refused = await withLockedDraft(prisma, workflowId, async (tx) => {
      await tx.run.create({ data: { workflowId, status: "QUEUED", request: {}, snapshot: {} } });
      return refuse(userError("CONFLICT", "changed my mind"));
    });
    expect(!refused.ok && refused.errors.map((error) => error.code)).toEqual(["CONFLICT"]);
    expect(await prisma.run.count({ where: { workflowId } })).toBe(0);
  });

  it("answers NOT_FOUND at the path given for a workflow that does not exist", async () => {
    const missing = "00000000-0000-4000-8000-000000000000";
    const outcome = await withLockedDraft(suite.db().prisma, missing, async () => "never", { notFoundPath: ["input", "workflowId"] });
    expect(!outcome.ok && outcome.errors.map((error) => [error.code, error.path])).toEqual([["NOT_FOUND", ["input", "workflowId"]]]);
  });
});
