import type { Workflow } from "@weft/engine";
import type { Prisma, Workflow as WorkflowRow } from "../../generated/prisma/client.js";
import { highestEdgeNumber } from "./node-id.js";
import { settingsColumns } from "./workflow-settings.mapper.js";
import { edgeCreateData, nodeCreateData } from "./workflow.mapper.js";

/**
 * Stores a whole engine workflow as a new row with its nodes and edges (create, import, duplicate), its
 * weft.workflow/v2 settings (loops, state channels, limits) included.
 * Edges get positions 1..n in the graph's order; nodes get createdAt one millisecond apart in the
 * graph's order, which is the order every later read returns them in.
 */
export async function insertWorkflow(
  tx: Prisma.TransactionClient,
  workflow: Workflow,
  description: string,
): Promise<WorkflowRow> {
  const row = await tx.workflow.create({
    data: {
      name: workflow.name,
      description,
      prompts: workflow.prompts,
      outputFormat: workflow.outputFormat,
      knowledgeBase: workflow.knowledgeBase ?? null,
      intensity: workflow.intensity ?? "LOW",
      ...settingsColumns(workflow),
      lastEdgeNumber: highestEdgeNumber(workflow.edges.map((edge) => edge.id)),
    },
  });
  const base = row.createdAt.getTime();
  await tx.workflowNode.createMany({
    data: workflow.nodes.map((node, index) => ({
      ...nodeCreateData(row.id, node),
      createdAt: new Date(base + index),
      updatedAt: row.createdAt,
    })),
  });
  await tx.workflowEdge.createMany({ data: edgeCreateData(row.id, workflow.edges) });
  return row;
}
