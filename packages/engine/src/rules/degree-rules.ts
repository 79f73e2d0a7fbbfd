import type { Violation } from "../model/violation.js";
import type { WorkflowEdge, WorkflowNode } from "../model/workflow.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import type { NodeTypeSpec } from "../registry/node-type-spec.js";
import { edgesInto, edgesOutOf, type GraphIndex } from "./graph-index.js";
import { describeNode, plural, quoteList } from "./rule-messages.js";

/**
 * Degree rules of the whole graph, one violation per node. A type whose degree limit is 0 on a side
 * takes no neighbour there at all, which is reported as INPUT_HAS_PRE / OUTPUT_HAS_POST rather
 * than as "too many". O(V+E).
 */
export function checkDegrees(index: GraphIndex, registry: NodeTypeRegistry): Violation[] {
  const violations: Violation[] = [];
  for (const node of index.nodes.values()) {
    const spec = registry.get(node.type);
    if (!spec) continue;
    checkInDegree(node, spec, edgesInto(index, node.id), registry, violations);
    checkOutDegree(node, spec, edgesOutOf(index, node.id), registry, violations);
  }
  return violations;
}

function checkInDegree(
  node: WorkflowNode,
  spec: NodeTypeSpec,
  edges: readonly WorkflowEdge[],
  registry: NodeTypeRegistry,
  out: Violation[],
): void {
  const count = edges.length;
  if (count >= spec.inDegree.min && count <= spec.inDegree.max) return;
  const who = describeNode(registry, node);
  const sources = edges.map((edge) => edge.source);
  const involved = (code: Violation["code"], message: string): Violation => ({
    code,
    message,
    nodeIds: [node.id, ...sources],
    edgeIds: edges.map((edge) => edge.id),
  });
  if (spec.inDegree.max === 0) {
    out.push(involved("INPUT_HAS_PRE", `${who} takes no pre-node, but is fed by ${quoteList(sources)}`));
  } else if (edges.length > spec.inDegree.max) {
    const limit = plural(spec.inDegree.max, "pre-node");
    out.push(involved("MULTIPLE_PRE", `${who} takes at most ${limit}, but is fed by ${quoteList(sources)}`));
  } else if (edges.length < spec.inDegree.min) {
    const need = plural(spec.inDegree.min, "pre-node");
    const has = edges.length === 0 ? "none" : quoteList(sources);
    out.push(involved("MISSING_PRE", `${who} needs at least ${need}; it has ${has}`));
  }
}

function checkOutDegree(
  node: WorkflowNode,
  spec: NodeTypeSpec,
  edges: readonly WorkflowEdge[],
  registry: NodeTypeRegistry,
  out: Violation[],
): void {
  const count = edges.length;
  if (count >= spec.outDegree.min && count <= spec.outDegree.max) return;
  const who = describeNode(registry, node);
  const targets = edges.map((edge) => edge.target);
  const involved = (code: Violation["code"], message: string): Violation => ({
    code,
    message,
    nodeIds: [node.id, ...targets],
    edgeIds: edges.map((edge) => edge.id),
  });
  if (spec.outDegree.max === 0) {
    out.push(involved("OUTPUT_HAS_POST", `${who} feeds no post-node, but feeds ${quoteList(targets)}`));
  } else if (edges.length > spec.outDegree.max) {
    const limit = plural(spec.outDegree.max, "post-node");
    out.push(involved("MULTIPLE_POST", `${who} feeds at most ${limit}, but feeds ${quoteList(targets)}`));
  } else if (edges.length < spec.outDegree.min) {
    const need = plural(spec.outDegree.min, "post-node");
    out.push(involved("MISSING_POST", `${who} needs at least ${need}; its output goes nowhere`));
  }
}
