import { DEFAULT_MAX_INVOCATIONS } from "../document/pipeline-document.schema.js";
import type { Violation } from "../model/violation.js";
import type { WorkflowGraph, WorkflowSettings } from "../model/workflow.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import { checkGraph } from "./graph-rules.js";
import type { AvailableModel } from "./model-rules.js";

export interface ValidateWorkflowOptions {
  /** The node types the workflow may use (`builtInRegistry`, or the host's own). */
  registry: NodeTypeRegistry;
  /**
   * Configured provider/model pairs for MODEL_UNAVAILABLE. Omitted: that rule is not checked (the
   * caller does not know what is configured, e.g. the editor offline); pass `[]` to mean "none".
   */
  models?: readonly AvailableModel[];
  /** An operator's ceiling on node invocations per run, applied on top of the workflow's own limit. */
  maxInvocations?: number;
}

/** A graph with the workflow settings the rules read (state channels, limits); plain graphs have none. */
export type ValidatedGraph = WorkflowGraph & Partial<Pick<WorkflowSettings, "state" | "limits">>;

/**
 * Every rule of SPEC §3 and SPEC-V2 §5 over a whole graph, all violations at once, bodies included
 * (their violations carry the body's `path`), in near-linear time. Used before a run, by
 * validateWorkflow, on import and by the command line. LOCKED_WHILE_RUNNING concerns edits, not graphs,
 * and is answered by the edit checks.
 */
export function validateWorkflow(graph: ValidatedGraph, options: ValidateWorkflowOptions): Violation[] {
  const check = checkGraph(graph, { registry: options.registry, models: options.models, state: graph.state ?? {}, inItemScope: false, isBody: false });
  const budget = invocationBudget(graph, check.nodeCount, options.maxInvocations);
  if (check.invocations > budget) {
    const message = `a run could need up to ${check.invocations} node invocations (loop maxima × map maxItems), more than the limit of ${budget}; lower a loop's max or a map's maxItems, or raise limits.maxInvocations`;
    check.violations.push({ code: "RUN_BUDGET_EXCEEDED", message, nodeIds: [], edgeIds: [], field: "limits.maxInvocations" });
  }
  return check.violations;
}

/** Worst-case node invocations of one run (SPEC-V2 §4), for the run budget. */
export function worstCaseInvocations(graph: ValidatedGraph, registry: NodeTypeRegistry): number {
  return checkGraph(graph, { registry, models: undefined, state: graph.state ?? {}, inItemScope: false, isBody: false }).invocations;
}

/**
 * The workflow's `limits.maxInvocations`; by default 1,000 or one invocation per node, whichever is
 * more, so a graph without loops or maps always fits (every seed-000 workflow does). An operator's
 * ceiling lowers it.
 */
export function invocationBudget(graph: ValidatedGraph, nodeCount: number, ceiling = Infinity): number {
  const own = graph.limits?.maxInvocations ?? Math.max(DEFAULT_MAX_INVOCATIONS, nodeCount);
  return Math.min(own, ceiling);
}
