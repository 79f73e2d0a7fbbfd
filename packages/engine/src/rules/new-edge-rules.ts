import { WeftError } from "../model/errors.js";
import type { Violation } from "../model/violation.js";
import { DEFAULT_PORT, type WorkflowGraph, type WorkflowNode } from "../model/workflow.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import { countedEdges, POST_SIDE, PRE_SIDE } from "./degree-rules.js";
import { findPath } from "./find-path.js";
import { edgesInto, edgesOutOf, indexGraph, nodeById, type GraphIndex } from "./graph-index.js";
import { checkTypePair } from "./pair-rule.js";
import { describeNode, describePath, plural, quoteList } from "./rule-messages.js";

/**
 * Edit-time rules for a would-be edge source → target. A self-loop or a second edge between the same
 * pair is refused by its own code only: the degree and cycle rules it would also seem to break are
 * that same edge again (root causes only). The cycle check searches from the target for the source
 * (the new edge closes a cycle exactly when that path exists): O(V+E) at worst.
 */
export function checkNewEdge(graph: WorkflowGraph, sourceId: string, targetId: string, registry: NodeTypeRegistry, sourcePort = DEFAULT_PORT): Violation[] {
  const index = indexGraph(graph);
  const source = lookup(index, sourceId);
  const target = lookup(index, targetId);
  if (sourceId === targetId) {
    const message = `${describeNode(registry, source)} cannot be connected to itself`;
    return [{ code: "SELF_LOOP", message, nodeIds: [sourceId], edgeIds: [] }];
  }
  const unknown = [source, target].filter((node) => !registry.has(node.type));
  if (unknown.length > 0) {
    return unknown.map((node) => ({
      code: "UNKNOWN_NODE_TYPE" as const,
      message: `node "${node.id}" has unknown type "${node.type}"`,
      nodeIds: [node.id],
      edgeIds: [],
    }));
  }
  const repeated = duplicate(index, source, target, sourcePort, registry);
  if (repeated.length > 0) return repeated;
  return [
    ...degreeLimits(index, source, target, registry),
    ...[checkTypePair(registry, source, target, [])].filter((violation) => violation !== null),
    ...closesCycle(index, source, target, registry),
  ];
}

function lookup(index: GraphIndex, id: string): WorkflowNode {
  const node = nodeById(index, id);
  if (!node) throw new WeftError("NODE_NOT_FOUND", `the workflow has no node "${id}"`);
  return node;
}

/** An existing data edge with the same source, port and target (another port of a router may lead there too). */
function duplicate(index: GraphIndex, source: WorkflowNode, target: WorkflowNode, sourcePort: string, registry: NodeTypeRegistry): Violation[] {
  const existing = edgesOutOf(index, source.id).filter((edge) => edge.target === target.id && (edge.sourcePort ?? DEFAULT_PORT) === sourcePort);
  if (existing.length === 0) return [];
  const ids = existing.map((edge) => edge.id);
  const message = `${describeNode(registry, source)} is already connected to ${describeNode(registry, target)} (edge ${quoteList(ids)})`;
  return [{ code: "DUPLICATE_EDGE", message, nodeIds: [source.id, target.id], edgeIds: ids }];
}

function degreeLimits(index: GraphIndex, source: WorkflowNode, target: WorkflowNode, registry: NodeTypeRegistry): Violation[] {
  const sourceSpec = registry.require(source.type);
  const targetSpec = registry.require(target.type);
  const violations: Violation[] = [];
  const into = countedEdges(PRE_SIDE, edgesInto(index, target.id), target.id);
  const outOf = countedEdges(POST_SIDE, edgesOutOf(index, source.id), source.id);
  const targetWho = describeNode(registry, target);
  const sourceWho = describeNode(registry, source);
  if (targetSpec.inDegree.max === 0) {
    violations.push({ code: "INPUT_HAS_PRE", message: `${targetWho} takes no pre-node`, nodeIds: [target.id], edgeIds: [] });
  } else if (into.length + 1 > targetSpec.inDegree.max) {
    const fedBy = into.map((edge) => edge.source);
    const message = `${targetWho} takes at most ${plural(targetSpec.inDegree.max, "pre-node")} and is already fed by ${quoteList(fedBy)}`;
    violations.push({ code: "MULTIPLE_PRE", message, nodeIds: [target.id, ...fedBy], edgeIds: into.map((edge) => edge.id) });
  }
  if (sourceSpec.outDegree.max === 0) {
    violations.push({ code: "OUTPUT_HAS_POST", message: `${sourceWho} feeds no post-node`, nodeIds: [source.id], edgeIds: [] });
  } else if (outOf.length + 1 > sourceSpec.outDegree.max) {
    const feeds = outOf.map((edge) => edge.target);
    const message = `${sourceWho} feeds at most ${plural(sourceSpec.outDegree.max, "post-node")} and already feeds ${quoteList(feeds)}`;
    violations.push({ code: "MULTIPLE_POST", message, nodeIds: [source.id, ...feeds], edgeIds: outOf.map((edge) => edge.id) });
  }
  return violations;
}

function closesCycle(index: GraphIndex, source: WorkflowNode, target: WorkflowNode, registry: NodeTypeRegistry): Violation[] {
  const path = findPath(index, target.id, source.id);
  if (!path) return [];
  const loop = describePath(registry, [...path.nodes, target]);
  const message = `connecting "${source.id}" to "${target.id}" would close a cycle: ${loop}`;
  return [{ code: "CYCLE", message, nodeIds: path.nodes.map((node) => node.id), edgeIds: path.edges.map((edge) => edge.id) }];
}
