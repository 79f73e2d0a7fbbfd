import type { Prisma, PrismaClient, Workflow as WorkflowRow } from "../../generated/prisma/client.js";
import type { Outcome } from "../../errors/outcome.js";
import type { WorkflowChanges } from "./workflow-changes.js";
import { findActiveRunId, withLockedRow, type LockedWorkflow } from "./workflow-lock.js";

export type WorkflowEdit<T> = (tx: Prisma.TransactionClient, workflow: LockedWorkflow) => Promise<T>;
export type GraphEdit<T> = (tx: Prisma.TransactionClient, row: WorkflowRow) => Promise<T>;

/**
 * A node or edge edit, atomically: lock the workflow by bumping its version (withLockedRow), let `edit`
 * read what its rules need — the active run of the draft included, in the one statement that reads its
 * slice of the graph and writes (workflow-edit-sql.ts) — check and write (it calls `refuse(...)` to stop,
 * which rolls the bump back with everything else). An edit is the lock, that statement and the commit.
 * Subscribers hear of the new version only after the commit. Concurrent edits of the same workflow queue
 * on the row lock, so each one checks the workflow its predecessor left.
 */
export async function runGraphEdit<T>(
  db: PrismaClient,
  workflowId: string,
  edit: GraphEdit<T>,
  changes?: WorkflowChanges,
  notFoundPath?: string[],
): Promise<Outcome<{ value: T; workflow: WorkflowRow }>> {
  const outcome = await withLockedRow(db, workflowId, async (tx, row) => ({ value: await edit(tx, row), workflow: row }), {
    bumpVersion: true,
    ...(notFoundPath ? { notFoundPath } : {}),
  });
  if (outcome.ok) await changes?.committed(outcome.value.workflow);
  return outcome;
}

/** runGraphEdit for an edit that is not one statement (updateWorkflow's settings): `edit` gets the active run of the draft read for it. */
export function runWorkflowEdit<T>(
  db: PrismaClient,
  workflowId: string,
  edit: WorkflowEdit<T>,
  changes?: WorkflowChanges,
  notFoundPath?: string[],
): Promise<Outcome<{ value: T; workflow: WorkflowRow }>> {
  return runGraphEdit(db, workflowId, async (tx, row) => edit(tx, { row, activeRunId: await findActiveRunId(tx, workflowId) }), changes, notFoundPath);
}
