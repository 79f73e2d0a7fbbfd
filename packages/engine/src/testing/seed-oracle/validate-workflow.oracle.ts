/**
 * TEST-ONLY ORACLE, not exported: the seed-000 whole-graph validator as it stood before the SPEC-V2 code paths replaced
 * it, kept verbatim apart from its imports so the v1 freeze property test (v1-freeze.test.ts) can check
 * that every v1 document yields the same violations and the same run events through the new paths.
 * Do not change its behaviour. (The type and cycle checks are the current ones, which v2 left unchanged.)
 */
import type { Violation } from "../../model/violation.js";
import type { WorkflowGraph } from "../../model/workflow.js";
import type { NodeTypeRegistry } from "../../registry/node-type-registry.js";
import { checkCounts } from "../../rules/count-rules.js";
import { checkDegrees } from "../../rules/degree-rules.js";
import { checkEdges } from "./edge-rules.oracle.js";
import { checkAcyclic, checkKnownTypes } from "../../rules/graph-rules.js";
import { indexGraph } from "../../rules/graph-index.js";
import { checkModels, type AvailableModel } from "../../rules/model-rules.js";
import { seedRegistry } from "./seed-registry.js";

interface ValidateWorkflowOptions {
  registry?: NodeTypeRegistry;
  /**
   * Configured provider/model pairs for MODEL_UNAVAILABLE. Omitted: that rule is not checked (the
   * caller does not know what is configured, e.g. the editor offline); pass `[]` to mean "none".
   */
  models?: readonly AvailableModel[];
}

/**
 * Every rule of SPEC §3 over a whole graph, all violations at once, in O(V+E). Used before a run, by
 * validateWorkflow, on import and by the command line. LOCKED_WHILE_RUNNING concerns edits, not
 * graphs, and is answered by the edit checks.
 */
export function validateSeedWorkflow(graph: WorkflowGraph, options: ValidateWorkflowOptions = {}): Violation[] {
  const registry = options.registry ?? seedRegistry;
  const index = indexGraph(graph);
  const violations: Violation[] = [
    ...checkKnownTypes(index, registry),
    ...checkEdges(index, graph.edges, registry),
    ...checkDegrees(index, registry),
    ...checkAcyclic(index, registry),
    ...checkCounts(index.nodes.values(), registry),
  ];
  if (options.models) violations.push(...checkModels(index.nodes.values(), registry, options.models));
  return violations;
}
