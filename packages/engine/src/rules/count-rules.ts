import type { Violation } from "../model/violation.js";
import type { WorkflowNode } from "../model/workflow.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import { describeCount, quoteList } from "./rule-messages.js";

/** How many nodes of each type a workflow holds; the count rules of the registry read it. */
export function countByType(nodes: Iterable<WorkflowNode>): Map<string, WorkflowNode[]> {
  const byType = new Map<string, WorkflowNode[]>();
  for (const node of nodes) {
    const same = byType.get(node.type);
    if (same) same.push(node);
    else byType.set(node.type, [node]);
  }
  return byType;
}

/** Count rules of the whole graph (INPUT_REQUIRED, OUTPUT_UNIQUE for the built-in types). O(V). */
export function checkCounts(nodes: Iterable<WorkflowNode>, registry: NodeTypeRegistry): Violation[] {
  const byType = countByType(nodes);
  const violations: Violation[] = [];
  for (const spec of registry.definitions()) {
    const rule = spec.count;
    if (!rule) continue;
    const found = byType.get(spec.type) ?? [];
    if (found.length >= rule.min && found.length <= rule.max) continue;
    const ids = found.map((node) => node.id);
    const has = found.length === 0 ? "it has none" : `it has ${found.length}: ${quoteList(ids)}`;
    violations.push({ code: rule.code, message: `${describeCount(registry, spec.type, rule)}; ${has}`, nodeIds: ids, edgeIds: [] });
  }
  return violations;
}
