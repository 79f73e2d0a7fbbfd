import type { WorkflowGraph } from "@weft/engine";
import type { Prisma, PrismaClient, Workflow as WorkflowRow, WorkflowEdge as EdgeRow, WorkflowNode as NodeRow } from "../../generated/prisma/client.js";
import type { Outcome } from "../../errors/outcome.js";
import type { WorkflowChanges } from "./workflow-changes.js";
import { NODE_ORDER, withLockedWorkflow, type LockedWorkflow } from "./workflow-lock.js";
import { edgeFromRow } from "./workflow.mapper.js";

/** What the edit-time rules look at: ids and types. Contents and params can be large and stay unread. */
export type NodeKey = Pick<NodeRow, "key" | "type">;

export interface LoadedWorkflow extends LockedWorkflow {
  nodes: NodeKey[];
  edges: EdgeRow[];
  /** The engine's view, nodes without their attributes; nodes and edges in creation order. */
  graph: WorkflowGraph;
}

export type WorkflowEdit<T> = (tx: Prisma.TransactionClient, workflow: LoadedWorkflow) => Promise<T>;

/**
 * One edit of one workflow, atomically: lock and load it (withLockedWorkflow), load its graph, let
 * `edit` check and write (it calls `refuse(...)` to stop, which rolls everything back), then bump the
 * version. Subscribers hear of the new version only after the commit. Concurrent edits of the same
 * workflow queue on the row lock, so each one checks the graph its predecessor left.
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
    async (tx, locked) => {
      const value = await edit(tx, await loadGraph(tx, locked));
      const updated = await tx.workflow.update({ where: { id: workflowId }, data: { version: { increment: 1 } } });
      return { value, workflow: updated };
    },
    notFoundPath,
  );
  if (outcome.ok) await changes?.committed(outcome.value.workflow);
  return outcome;
}

async function loadGraph(tx: Prisma.TransactionClient, locked: LockedWorkflow): Promise<LoadedWorkflow> {
  const workflowId = locked.row.id;
  // One connection per transaction: the queries run one after another anyway.
  const nodes = await tx.workflowNode.findMany({ where: { workflowId }, orderBy: NODE_ORDER, select: { key: true, type: true } });
  const edges = await tx.workflowEdge.findMany({ where: { workflowId }, orderBy: { position: "asc" } });
  const graph = {
    nodes: nodes.map((node) => ({ id: node.key, type: node.type })),
    edges: edges.map(edgeFromRow),
  };
  return { ...locked, nodes, edges, graph };
}
