import type { WorkflowGraph } from "@weft/engine";
import type {
  Prisma,
  PrismaClient,
  Workflow as WorkflowRow,
  WorkflowEdge as EdgeRow,
  WorkflowNode as NodeRow,
} from "../../generated/prisma/client.js";
import { findActiveRunId, lockWorkflowRow } from "./workflow-lock.js";
import type { WorkflowChanges } from "./workflow-changes.js";
import { edgeFromRow } from "./workflow.mapper.js";
import { notFoundError, userError, type UserError } from "../../errors/user-error.type.js";
import { failure, success, type Outcome } from "../../errors/outcome.js";

/**
 * Nodes in creation order. Imports and duplicates stamp createdAt one millisecond apart in document
 * order, so an exported document lists its nodes in the order they were imported.
 */
export const NODE_ORDER = [{ createdAt: "asc" }, { key: "asc" }] satisfies Prisma.WorkflowNodeOrderByWithRelationInput[];

/** Generous: the machine may be busy, and a 2,000-node graph is loaded and checked inside. */
export const EDIT_TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 30_000 } as const;

/** What the edit-time rules look at: ids and types. Contents and params can be large and stay unread. */
export type NodeKey = Pick<NodeRow, "key" | "type">;

export interface LoadedWorkflow {
  row: WorkflowRow;
  nodes: NodeKey[];
  edges: EdgeRow[];
  /** The engine's view, nodes without their attributes; nodes and edges in creation order. */
  graph: WorkflowGraph;
  activeRunId: string | null;
}

/** Thrown inside the transaction to roll it back and hand the user errors to the caller. */
class EditRefused extends Error {
  constructor(readonly errors: UserError[]) {
    super("edit refused");
  }
}

export function refuse(...errors: UserError[]): never {
  throw new EditRefused(errors);
}

export type WorkflowEdit<T> = (tx: Prisma.TransactionClient, workflow: LoadedWorkflow) => Promise<T>;

/**
 * One edit of one workflow, atomically: lock the workflow row, load it with its graph, let `edit`
 * check and write (it calls `refuse(...)` to stop, which rolls everything back), then bump the
 * version. Subscribers hear of the new version only after the commit. Concurrent edits of the same workflow queue on the row lock, so each one checks the graph
 * its predecessor left.
 */
export async function runWorkflowEdit<T>(
  db: PrismaClient,
  workflowId: string,
  edit: WorkflowEdit<T>,
  changes?: WorkflowChanges,
): Promise<Outcome<{ value: T; workflow: WorkflowRow }>> {
  try {
    const result = await db.$transaction(async (tx) => {
      const workflow = await loadLocked(tx, workflowId);
      const value = await edit(tx, workflow);
      const updated = await tx.workflow.update({ where: { id: workflowId }, data: { version: { increment: 1 } } });
      return { value, workflow: updated };
    }, EDIT_TRANSACTION_OPTIONS);
    await changes?.committed(result.workflow);
    return success(result);
  } catch (error) {
    if (error instanceof EditRefused) return failure(...error.errors);
    throw error;
  }
}

async function loadLocked(tx: Prisma.TransactionClient, workflowId: string): Promise<LoadedWorkflow> {
  if (!(await lockWorkflowRow(tx, workflowId))) refuse(notFoundError("workflow", workflowId));
  // One connection per transaction: the queries run one after another anyway.
  const row = await tx.workflow.findUniqueOrThrow({ where: { id: workflowId } });
  const nodes = await tx.workflowNode.findMany({ where: { workflowId }, orderBy: NODE_ORDER, select: { key: true, type: true } });
  const edges = await tx.workflowEdge.findMany({ where: { workflowId }, orderBy: { position: "asc" } });
  const activeRunId = await findActiveRunId(tx, workflowId);
  const graph = {
    nodes: nodes.map((node) => ({ id: node.key, type: node.type })),
    edges: edges.map(edgeFromRow),
  };
  return { row, nodes, edges, graph, activeRunId };
}

/** The refusal for a graph change while a run holds the workflow. */
export function lockedWhileRunning(
  activeRunId: string,
  refs: { nodeIds?: string[]; edgeIds?: string[] } = {},
): UserError {
  return userError(
    "LOCKED_WHILE_RUNNING",
    `the workflow cannot be changed while its run "${activeRunId}" is active; wait for it to end or cancel it`,
    refs,
  );
}
