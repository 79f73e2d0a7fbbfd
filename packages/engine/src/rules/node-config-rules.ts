import type { Violation } from "../model/violation.js";
import type { WorkflowNode } from "../model/workflow.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import { describeNode } from "./rule-messages.js";

/** Each node type's own rules over its nodes' configs (`configRules`), as violations of the node with their field. */
export function checkNodeConfigRules(nodes: Iterable<WorkflowNode>, registry: NodeTypeRegistry): Violation[] {
  const violations: Violation[] = [];
  for (const node of nodes) {
    const rules = registry.get(node.type)?.configRules;
    if (!rules) continue;
    for (const issue of rules(node)) {
      const message = `${issue.field} of ${describeNode(registry, node)} ${issue.message}`;
      violations.push({ code: issue.code, message, nodeIds: [node.id], edgeIds: [], field: issue.field, position: issue.position });
    }
  }
  return violations;
}
