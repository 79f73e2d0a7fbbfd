import { checkAddEdge, checkEdit, DEFAULT_PORT, type LoopDeclaration, type NodeTypeRegistry, type Violation, type Workflow, type WorkflowGraph } from "@weft/engine";
import type { Prisma, PrismaClient, Workflow as WorkflowRow, WorkflowEdge as EdgeRow } from "../../generated/prisma/client.js";
import type { ServiceDeps } from "../../service-deps.js";
import type { WorkflowChanges } from "./workflow-changes.js";
import { WORKFLOW_INPUT_LIMITS as LIMITS } from "./workflow-input.limits.js";
import { checkNodeId } from "./workflow-input.validation.js";
import { runGraphEdit } from "./workflow-edit.transaction.js";
import { refuse } from "../../errors/refusal.js";
import { loadWorkflow, lockedWhileRunning } from "./workflow-lock.js";
import { addEdgeStatement, checkedOnSlices, removeEdgeStatement, ruleTypes, type RuleTypes } from "./workflow-edit-sql.js";
import { checkEdgeName, readLoopDeclaration } from "./pipeline-input.validation.js";
import { settingsColumns } from "./workflow-settings.mapper.js";
import { userError, violationToUserError } from "../../errors/user-error.type.js";
import { failure, type Outcome } from "../../errors/outcome.js";

export interface EdgeEditResult {
  edge: EdgeRow;
  workflow: WorkflowRow;
}

/** weft.workflow/v2: the source's port (absent: `out`) and, for a loop edge, the loop it closes. */
export interface EdgeOptions {
  sourcePort?: string | null;
  loop?: string | null;
  /** A new loop declared in the same step as this, its first edge (`loop` then names it or is left out). */
  declareLoop?: { id: string; max?: number | null; exit?: string | null } | null;
}

/** Edge edits: add (checked against every edit-time rule by the engine) and remove. */
export class WorkflowEdgeService {
  private readonly db: PrismaClient;
  private readonly registry: NodeTypeRegistry;
  private readonly changes: WorkflowChanges | undefined;
  private readonly types: RuleTypes;

  constructor(deps: Pick<ServiceDeps, "db" | "registry">, changes?: WorkflowChanges) {
    this.db = deps.db;
    this.registry = deps.registry;
    this.changes = changes;
    this.types = ruleTypes(deps.registry);
  }

  /**
   * The new edge is ordered after every existing edge (position = highest + 1); its id `e<n>` is new
   * to the workflow, never one a deleted edge had. A seed-000 workflow's data edge is checked on the
   * slice of the graph its rules read; anything else (a port, a loop edge, a workflow using the
   * weft.workflow/v2 language) against the whole graph. With `declareLoop`, the loop is declared in
   * the same transaction: both are stored or neither is.
   */
  async addEdge(workflowId: string, source: string, target: string, options: EdgeOptions = {}): Promise<Outcome<EdgeEditResult>> {
    const invalid = [
      ...checkNodeId(source, ["source"]),
      ...checkNodeId(target, ["target"]),
      ...checkEdgeName(options.sourcePort, ["sourcePort"]),
      ...checkEdgeName(options.loop, ["loop"]),
    ];
    const declaration = options.declareLoop ? readLoopDeclaration(this.registry, options.declareLoop, ["declareLoop"]) : null;
    if (declaration && !declaration.ok) invalid.push(...declaration.errors);
    const declared = declaration?.ok ? declaration.loop : null;
    if (declared && options.loop != null && options.loop !== declared.id) {
      invalid.push(userError("VALIDATION_FAILED", `loop "${options.loop}" differs from the loop declared with the edge ("${declared.id}")`, { path: ["loop"] }));
    }
    if (invalid.length > 0) return failure(...invalid);
    const sourcePort = options.sourcePort === DEFAULT_PORT ? null : (options.sourcePort ?? null);
    const loop = declared?.id ?? options.loop ?? null;
    const rules = { registry: this.registry, ...(sourcePort !== null ? { sourcePort } : {}), ...(loop !== null ? { loop } : {}) };
    const outcome = await runGraphEdit(this.db, workflowId, async (tx, row) => {
      const added = await addEdgeStatement(tx, row, { source, target, sourcePort, loop }, this.types, LIMITS.maxEdges);
      if (added.activeRunId) refuse(lockedWhileRunning(added.activeRunId, { nodeIds: [source, target] }));
      const missing = [source, target].filter((id, index, all) => !added.slice.nodes.some((node) => node.id === id) && all.indexOf(id) === index);
      if (missing.length > 0) {
        const names = missing.map((id) => `"${id}"`).join(" and ");
        refuse(userError("NOT_FOUND", `the workflow has no node ${names}`, { nodeIds: missing }));
      }
      if (added.full) {
        refuse(userError("LIMIT_EXCEEDED", `a workflow holds at most ${LIMITS.maxEdges} edges`));
      }
      const edge = added.edge;
      if (!edge) throw new Error("addEdge wrote no edge although both ends exist and no run is active");
      const onSlice = sourcePort === null && loop === null && checkedOnSlices(row, added.otherTypes);
      const graph: WorkflowGraph = onSlice ? added.slice : await graphBefore(tx, row, edge.key);
      const loops = declared ? declareLoop(graph.loops ?? [], declared) : null;
      const violations: Violation[] = loops ? checkEdit(graph, { kind: "updateSettings", loops }, { registry: this.registry }) : [];
      violations.push(...checkAddEdge(loops ? { ...graph, loops } : graph, source, target, rules));
      if (violations.length > 0) refuse(...violations.map(violationToUserError));
      // The statement raised lastEdgeNumber to the new edge's number; a declared loop is one more write.
      const written = loops
        ? await tx.workflow.update({ where: { id: workflowId }, data: { loops: settingsColumns({ loops }).loops } })
        : { ...row, lastEdgeNumber: added.number };
      return { edge, row: written };
    }, this.changes);
    return outcome.ok ? { ok: true, value: { edge: outcome.value.value.edge, workflow: outcome.value.value.row } } : outcome;
  }

  /** Removing an edge breaks no edit-time rule; the run-time rules report a node left unconnected. */
  async removeEdge(workflowId: string, edgeId: string): Promise<Outcome<{ removedEdgeId: string; workflow: WorkflowRow }>> {
    const outcome = await runGraphEdit(this.db, workflowId, async (tx, row) => {
      const removal = await removeEdgeStatement(tx, row, edgeId);
      if (!removal.found) {
        refuse(userError("NOT_FOUND", `the workflow has no edge "${edgeId}"`, { edgeIds: [edgeId], path: ["edgeId"] }));
      }
      if (removal.activeRunId) refuse(lockedWhileRunning(removal.activeRunId, { edgeIds: [edgeId] }));
    }, this.changes);
    return outcome.ok ? { ok: true, value: { removedEdgeId: edgeId, workflow: outcome.value.workflow } } : outcome;
  }
}

/** The whole graph as it was before the new edge `key` was written (the edge is the last one, by position). */
async function graphBefore(tx: Prisma.TransactionClient, row: WorkflowRow, key: string): Promise<Workflow> {
  const graph = await loadWorkflow(tx, { row });
  return { ...graph, edges: graph.edges.filter((edge) => edge.id !== key) };
}

/** The workflow's loops with a new one appended; CONFLICT when its id is taken. */
function declareLoop(loops: readonly LoopDeclaration[], declared: LoopDeclaration): LoopDeclaration[] {
  if (loops.some((loop) => loop.id === declared.id)) {
    refuse(userError("CONFLICT", `loop "${declared.id}" is already declared: name it with loop instead of declaring it again`, { path: ["declareLoop", "id"] }));
  }
  return [...loops, declared];
}
