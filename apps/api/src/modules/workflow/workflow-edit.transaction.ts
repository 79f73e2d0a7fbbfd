import type { Prisma, PrismaClient, Workflow as WorkflowRow } from "../../generated/prisma/client.js";
import type { Outcome } from "../../errors/outcome.js";
import type { WorkflowChanges } from "./workflow-changes.js";
import { withLockedWorkflow, type LockedWorkflow } from "./workflow-lock.js";

export type WorkflowEdit<T> = (tx: Prisma.TransactionClient, workflow: LockedWorkflow) => Promise<T>;

/**
 * One edit of one workflow, atomically: lock it by bumping its version and load it (withLockedWorkflow),
 * let `edit` read the part of the graph its rules need (workflow-graph-slice.ts), check and write (it
 * calls `refuse(...)` to stop, which rolls the bump back with everything else). Subscribers hear of the new version only
 * after the commit. Concurrent edits of the same workflow queue on the row lock, so each one checks the
 * graph its predecessor left.
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
