import type { Prisma } from "../../generated/prisma/client.js";

/** Runs that hold a workflow: while one of these exists, no node or edge of it may change. */
export const ACTIVE_RUN_STATUSES = ["QUEUED", "RUNNING"] as const;

/**
 * Takes the workflow's row lock for the rest of the transaction. Every graph edit and every run start
 * takes it first, so an edit and a run start on the same workflow are serialised: the edit sees the
 * run (and is refused), or the run starts from the graph as edited — never a mix.
 *
 * Returns false when the workflow does not exist.
 */
export async function lockWorkflowRow(tx: Prisma.TransactionClient, workflowId: string): Promise<boolean> {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "Workflow" WHERE id = ${workflowId} FOR UPDATE`;
  return rows.length > 0;
}

/** The id of the workflow's QUEUED or RUNNING run, if any. Call after lockWorkflowRow. */
export async function findActiveRunId(tx: Prisma.TransactionClient, workflowId: string): Promise<string | null> {
  const run = await tx.run.findFirst({
    where: { workflowId, status: { in: [...ACTIVE_RUN_STATUSES] } },
    select: { id: true },
    orderBy: { createdAt: "desc" },
  });
  return run?.id ?? null;
}

/**
 * Takes the row in share mode: concurrent readers proceed, edits (FOR UPDATE) wait until the reading
 * transaction ends, so a workflow read in one transaction never mixes two versions of its graph.
 */
export async function shareLockWorkflowRow(tx: Prisma.TransactionClient, workflowId: string): Promise<boolean> {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "Workflow" WHERE id = ${workflowId} FOR SHARE`;
  return rows.length > 0;
}
