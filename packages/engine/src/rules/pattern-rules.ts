import { literalPatterns, type ExpressionScope } from "../expression/cel-expression.js";
import type { Violation } from "../model/violation.js";
import type { WorkflowNode } from "../model/workflow.js";
import { patternProblem } from "../patterns/user-pattern.js";
import { OFFLINE_PROVIDER_ID } from "../providers/offline-llm-provider.js";
import type { NodePattern } from "../registry/node-type-definition.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import { describeNode } from "./rule-messages.js";

/**
 * PATTERN_INVALID: every regular expression of every node compiles in the linear-time engine (RE2
 * syntax): the patterns its type declares (a guardrail's `patterns`, an llm's JSON Schema), the offline
 * scripted model's `params.match`, and the literal patterns of CEL `matches()` in its expressions.
 */
export function checkPatterns(nodes: Iterable<WorkflowNode>, registry: NodeTypeRegistry, scope: ExpressionScope): Violation[] {
  const violations: Violation[] = [];
  for (const node of nodes) {
    const spec = registry.get(node.type);
    const patterns: NodePattern[] = [...(spec?.patterns?.(node) ?? []), ...scriptedPatterns(node)];
    for (const expression of spec?.expressions?.(node) ?? []) {
      for (const source of literalPatterns(expression.source, scope)) patterns.push({ field: expression.field, source });
    }
    for (const { field, source } of patterns) {
      const problem = patternProblem(source);
      if (problem === null) continue;
      const message = `${field} of ${describeNode(registry, node)}: ${problem}`;
      violations.push({ code: "PATTERN_INVALID", message, nodeIds: [node.id], edgeIds: [], field });
    }
  }
  return violations;
}

/** The offline scripted model picks its replies by `params.match[k].pattern` on the prompt. */
function scriptedPatterns(node: WorkflowNode): NodePattern[] {
  const match = node.provider === OFFLINE_PROVIDER_ID ? node.params?.match : undefined;
  if (!Array.isArray(match)) return [];
  return match.flatMap((entry: unknown, k) => {
    const pattern = (entry as { pattern?: unknown } | null)?.pattern;
    return typeof pattern === "string" ? [{ field: `params.match[${k}].pattern`, source: pattern }] : [];
  });
}
