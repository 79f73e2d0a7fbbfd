import type { Workflow } from "@weft/engine";
import type { Prisma, PrismaClient, Workflow as WorkflowRow } from "../../generated/prisma/client.js";
import { NODE_ORDER, shareLockWorkflowRow } from "./workflow-lock.js";
import { workflowFromRows, type EdgeRowData, type NodeRowData } from "./workflow.mapper.js";

export interface WorkflowRows {
  row: WorkflowRow;
  nodes: NodeRowData[];
  edges: EdgeRowData[];
}

/** A workflow with its graph as of one moment (see shareLockWorkflowRow); null when it does not exist. */
export async function readWorkflowRows(db: PrismaClient, workflowId: string): Promise<WorkflowRows | null> {
  return db.$transaction(async (tx) => ((await shareLockWorkflowRow(tx, workflowId)) ? loadWorkflowRows(tx, workflowId) : null));
}

/** The whole workflow as of one moment (see readWorkflowRows); null when it does not exist. */
export async function readWorkflow(db: PrismaClient, workflowId: string): Promise<Workflow | null> {
  const rows = await readWorkflowRows(db, workflowId);
  return rows && workflowFromRows(rows.row, rows.nodes, rows.edges);
}

/** The workflow with its whole graph, inside a transaction that already holds the workflow's row lock. */
export async function loadWorkflowRows(tx: Prisma.TransactionClient, workflowId: string): Promise<WorkflowRows> {
  const row = await tx.workflow.findUniqueOrThrow({ where: { id: workflowId } });
  const nodes = await tx.workflowNode.findMany({ where: { workflowId }, orderBy: NODE_ORDER });
  const edges = await tx.workflowEdge.findMany({ where: { workflowId }, orderBy: { position: "asc" } });
  return { row, nodes, edges };
}
