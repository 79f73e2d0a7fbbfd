import type { Prisma, PrismaClient, Workflow as WorkflowRow } from "../../generated/prisma/client.js";
import type { Outcome } from "../../errors/outcome.js";
import type { WorkflowChanges } from "./workflow-changes.js";
import { withLockedRow, withLockedWorkflow, type LockedWorkflow } from "./workflow-lock.js";

export type WorkflowEdit<T> = (tx: Prisma.TransactionClient, workflow: LockedWorkflow) => Promise<T>;
export type GraphEdit<T> = (tx: Prisma.TransactionClient, row: WorkflowRow) => Promise<T>;

/**
 * One edit of one workflow, atomically: lock it by bumping its version and load it with its active run
 * (withLockedWorkflow), let `edit` read what its rules need, check and write (it calls `refuse(...)` to
 * stop, which rolls the bump back with everything else). Subscribers hear of the new version only
 * after the commit. Concurrent edits of the same workflow queue on the row lock, so each one checks the
 * workflow its predecessor left.
 */
export async function runWorkflowEdit<T>(
  db: PrismaClient,
  workflowId: string,
  edit: WorkflowEdit<T>,
  changes?: WorkflowChanges,
  notFoundPath?: string[],
): Promise<Outcome<{ value: T; workflow: WorkflowRow }>> {
  const outcome = await withLockedWorkflow(
    db,
    workflowId,
    async (tx, locked) => ({ value: await edit(tx, locked), workflow: locked.row }),
    { bumpVersion: true, ...(notFoundPath ? { notFoundPath } : {}) },
  );
  if (outcome.ok) await changes?.committed(outcome.value.workflow);
  return outcome;
}

/**
 * A node or edge edit: like runWorkflowEdit, but `edit` gets only the locked row and reads the active
 * run of the draft itself, in the one statement that reads its slice of the graph and writes
 * (workflow-edit-sql.ts): an edit is the lock, that statement and the commit.
 */
export async function runGraphEdit<T>(
  db: PrismaClient,
  workflowId: string,
  edit: GraphEdit<T>,
  changes?: WorkflowChanges,
): Promise<Outcome<{ value: T; workflow: WorkflowRow }>> {
  const outcome = await withLockedRow(db, workflowId, async (tx, row) => ({ value: await edit(tx, row), workflow: row }), { bumpVersion: true });
  if (outcome.ok) await changes?.committed(outcome.value.workflow);
  return outcome;
}
