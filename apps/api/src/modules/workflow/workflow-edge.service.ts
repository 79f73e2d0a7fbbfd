import { checkAddEdge, type NodeTypeRegistry } from "@weft/engine";
import type { PrismaClient, Workflow as WorkflowRow, WorkflowEdge as EdgeRow } from "../../generated/prisma/client.js";
import type { ServiceDeps } from "../../service-deps.js";
import type { WorkflowChanges } from "./workflow-changes.js";
import { WORKFLOW_INPUT_LIMITS as LIMITS } from "./workflow-input.limits.js";
import { checkNodeId } from "./workflow-input.validation.js";
import { runWorkflowEdit } from "./workflow-edit.transaction.js";
import { lockedWhileRunning, refuse } from "./workflow-lock.js";
import { nextEdgeId } from "./node-id.js";
import { userError, violationToUserError } from "../../errors/user-error.type.js";
import { failure, type Outcome } from "../../errors/outcome.js";

export interface EdgeEditResult {
  edge: EdgeRow;
  workflow: WorkflowRow;
}

/** Edge edits: add (checked against every edit-time rule by the engine) and remove. */
export class WorkflowEdgeService {
  private readonly db: PrismaClient;
  private readonly registry: NodeTypeRegistry;
  private readonly changes: WorkflowChanges | undefined;

  constructor(deps: Pick<ServiceDeps, "db" | "registry">, changes?: WorkflowChanges) {
    this.db = deps.db;
    this.registry = deps.registry;
    this.changes = changes;
  }

  /**
   * The new edge is ordered after every existing edge (position = highest + 1). Its number can repeat
   * one of an edge deleted earlier only if that edge was the newest; the order stays right either way.
   */
  async addEdge(workflowId: string, source: string, target: string): Promise<Outcome<EdgeEditResult>> {
    const invalid = [...checkNodeId(source, ["source"]), ...checkNodeId(target, ["target"])];
    if (invalid.length > 0) return failure(...invalid);
    const outcome = await runWorkflowEdit(this.db, workflowId, async (tx, workflow) => {
      if (workflow.activeRunId) refuse(lockedWhileRunning(workflow.activeRunId, { nodeIds: [source, target] }));
      const keys = new Set(workflow.nodes.map((node) => node.key));
      const missing = [source, target].filter((id, index, all) => !keys.has(id) && all.indexOf(id) === index);
      if (missing.length > 0) {
        const names = missing.map((id) => `"${id}"`).join(" and ");
        refuse(userError("NOT_FOUND", `the workflow has no node ${names}`, { nodeIds: missing }));
      }
      if (workflow.edges.length >= LIMITS.maxEdges) {
        refuse(userError("LIMIT_EXCEEDED", `a workflow holds at most ${LIMITS.maxEdges} edges`));
      }
      const violations = checkAddEdge(workflow.graph, source, target, { registry: this.registry });
      if (violations.length > 0) refuse(...violations.map(violationToUserError));
      const position = workflow.edges.reduce((highest, edge) => Math.max(highest, edge.position), 0) + 1;
      const key = nextEdgeId(
        workflow.edges.map((edge) => edge.key),
        position,
      );
      return tx.workflowEdge.create({ data: { workflowId, key, source, target, position } });
    }, this.changes, ["workflowId"]);
    return outcome.ok ? { ok: true, value: { edge: outcome.value.value, workflow: outcome.value.workflow } } : outcome;
  }

  /** Removing an edge breaks no edit-time rule; the run-time rules report a node left unconnected. */
  async removeEdge(workflowId: string, edgeId: string): Promise<Outcome<{ removedEdgeId: string; workflow: WorkflowRow }>> {
    const outcome = await runWorkflowEdit(this.db, workflowId, async (tx, workflow) => {
      if (!workflow.edges.some((edge) => edge.key === edgeId)) {
        refuse(userError("NOT_FOUND", `the workflow has no edge "${edgeId}"`, { edgeIds: [edgeId], path: ["edgeId"] }));
      }
      if (workflow.activeRunId) refuse(lockedWhileRunning(workflow.activeRunId, { edgeIds: [edgeId] }));
      await tx.workflowEdge.delete({ where: { workflowId_key: { workflowId, key: edgeId } } });
    }, this.changes, ["workflowId"]);
    return outcome.ok ? { ok: true, value: { removedEdgeId: edgeId, workflow: outcome.value.workflow } } : outcome;
  }
}
