import { compileExpression, type ExpressionScope } from "../expression/cel-expression.js";
import type { Violation } from "../model/violation.js";
import type { WorkflowNode } from "../model/workflow.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import { describeNode } from "./rule-messages.js";

/** EXPRESSION_INVALID: every CEL expression of every node compiles (parse and type check), with the error's offset. */
export function checkExpressions(nodes: Iterable<WorkflowNode>, registry: NodeTypeRegistry, scope: ExpressionScope): Violation[] {
  const violations: Violation[] = [];
  for (const node of nodes) {
    const spec = registry.get(node.type);
    if (!spec?.expressions) continue;
    for (const expression of spec.expressions(node)) {
      const result = compileExpression(expression.source, scope);
      if (result.ok) continue;
      const message = `${expression.field} of ${describeNode(registry, node)} does not compile: ${result.message} (at character ${result.position + 1})`;
      violations.push({ code: "EXPRESSION_INVALID", message, nodeIds: [node.id], edgeIds: [], field: expression.field, position: result.position });
    }
  }
  return violations;
}
