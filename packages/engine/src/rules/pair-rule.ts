import type { Violation } from "../model/violation.js";
import type { WorkflowNode } from "../model/workflow.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import { describeNode, orList, typeLabel, withArticle } from "./rule-messages.js";

/**
 * TYPE_PAIR_FORBIDDEN for one would-be or existing edge, or null when the pair is allowed. Pairs into
 * a type that takes no pre-node (or out of one that feeds nothing) are left to the degree rules,
 * which say so more plainly. Nodes of unknown type are reported by their own rule.
 */
export function checkTypePair(
  registry: NodeTypeRegistry,
  source: WorkflowNode,
  target: WorkflowNode,
  edgeIds: string[],
): Violation | null {
  const sourceSpec = registry.get(source.type);
  const targetSpec = registry.get(target.type);
  if (!sourceSpec || !targetSpec) return null;
  if (targetSpec.inDegree.max === 0 || sourceSpec.outDegree.max === 0) return null;
  if (registry.allowsPair(source.type, target.type)) return null;
  const sourceIs = `"${source.id}" is ${withArticle(typeLabel(registry, source.type))} node`;
  const targetIs = `"${target.id}" is ${withArticle(typeLabel(registry, target.type))} node`;
  const labels = (types: readonly string[]) => orList(types.map((type) => typeLabel(registry, type)));
  const message = targetSpec.accepts.includes(source.type)
    ? `${describeNode(registry, source)} feeds only ${labels(sourceSpec.feeds)} nodes; ${targetIs}`
    : `${describeNode(registry, target)} takes only ${labels(targetSpec.accepts)} nodes as pre-nodes; ${sourceIs}`;
  return { code: "TYPE_PAIR_FORBIDDEN", message, nodeIds: [source.id, target.id], edgeIds };
}
