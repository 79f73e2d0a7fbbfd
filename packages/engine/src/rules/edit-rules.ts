import { WeftError } from "../model/errors.js";
import type { Violation } from "../model/violation.js";
import type { LoopDeclaration, StateChannel, WorkflowEdge, WorkflowLimits, WorkflowNode } from "../model/workflow.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import { countByType } from "./count-rules.js";
import { checkNewEdge } from "./new-edge-rules.js";
import { NEW_EDGE_ID, newEditViolations, usesPipelineFeatures } from "./pipeline-edit-rules.js";
import type { ValidatedGraph } from "./validate-workflow.js";
import { describeCount, describeNode, quoteList, typeLabel } from "./rule-messages.js";

/** One edit of a workflow graph, as the API's mutations and the editor's gestures express it. */
export type WorkflowEdit =
  | { kind: "addEdge"; source: string; target: string; sourcePort?: string; loop?: string }
  | { kind: "removeEdge"; edgeId: string }
  | { kind: "addNode"; type: string }
  | { kind: "removeNode"; nodeId: string }
  /** `node`: the node as it would be after the update (its config checked against the rules). */
  | { kind: "updateNode"; nodeId: string; node?: WorkflowNode }
  /** Workflow settings the rules read; a field left out is unchanged. */
  | { kind: "updateSettings"; loops?: LoopDeclaration[]; state?: Record<string, StateChannel>; limits?: WorkflowLimits };

/** The graph and the settings the rules read (loops, state channels, limits). */
type WorkflowGraph = ValidatedGraph;

export interface EditCheckOptions {
  /** The node types the workflow may use (`builtInRegistry`, or the host's own). */
  registry: NodeTypeRegistry;
  /** A run of the workflow is active: every edit is refused with LOCKED_WHILE_RUNNING. */
  locked?: boolean;
}

/**
 * The edit-time rules of SPEC §3 for one edit of a valid-so-far graph: an empty list means the edit
 * is allowed. Pure and free of Node APIs, so the editor gives the same answer as the server. Run-time
 * rules (MISSING_PRE, MISSING_POST, MODEL_UNAVAILABLE) are not checked: a graph may pass through such
 * states while it is being built. At worst O(V+E) (the cycle check of addEdge).
 *
 * Throws WeftError NODE_NOT_FOUND / EDGE_NOT_FOUND when the edit names something the graph lacks.
 */
export function checkEdit(graph: WorkflowGraph, edit: WorkflowEdit, options: EditCheckOptions): Violation[] {
  const { registry } = options;
  const violations: Violation[] = options.locked ? [lockedViolation(edit)] : [];
  switch (edit.kind) {
    case "addEdge":
      violations.push(...checkAddEdgeEdit(graph, edit, registry));
      break;
    case "removeEdge":
      requireEdge(graph, edit.edgeId);
      break;
    case "addNode":
      violations.push(...checkAddNodeCount(graph, edit.type, registry));
      break;
    case "removeNode":
      violations.push(...checkRemoveNodeCount(graph, requireNode(graph, edit.nodeId), registry));
      break;
    case "updateNode": {
      requireNode(graph, edit.nodeId);
      const updated = edit.node;
      if (updated) {
        const after = { ...graph, nodes: graph.nodes.map((node) => (node.id === edit.nodeId ? updated : node)) };
        violations.push(...newEditViolations(graph, after, registry));
      }
      break;
    }
    case "updateSettings": {
      const { kind: _kind, ...settings } = edit;
      violations.push(...newEditViolations(graph, { ...graph, ...settings }, registry));
      break;
    }
  }
  return violations;
}

/** Rules the seed-000 check already decides for a data edge; the v2 check adds the others. */
const SEED_EDGE_CODES = new Set(["SELF_LOOP", "DUPLICATE_EDGE", "UNKNOWN_NODE_TYPE", "INPUT_HAS_PRE", "OUTPUT_HAS_POST", "MULTIPLE_PRE", "MULTIPLE_POST", "TYPE_PAIR_FORBIDDEN", "CYCLE"]);

/**
 * A data edge gets the seed-000 checks as before; with ports, loop edges or pipeline types in play the
 * edit-time rules of SPEC-V2 also judge the graph the edge would make (a loop edge is not a data
 * edge, so degrees and CYCLE do not apply to it).
 */
function checkAddEdgeEdit(graph: WorkflowGraph, edit: Extract<WorkflowEdit, { kind: "addEdge" }>, registry: NodeTypeRegistry): Violation[] {
  const isLoop = edit.loop !== undefined;
  const seed = isLoop ? [] : checkNewEdge(graph, edit.source, edit.target, registry, edit.sourcePort);
  if (edit.sourcePort === undefined && !isLoop && !usesPipelineFeatures(graph, registry)) return seed;
  if (isLoop) {
    requireNode(graph, edit.source);
    requireNode(graph, edit.target);
  }
  const edge: WorkflowEdge = { id: NEW_EDGE_ID, source: edit.source, target: edit.target };
  if (edit.sourcePort !== undefined) edge.sourcePort = edit.sourcePort;
  if (isLoop) edge.loop = edit.loop;
  const added = newEditViolations(graph, { ...graph, edges: [...graph.edges, edge] }, registry);
  return [...seed, ...added.filter((violation) => isLoop || !SEED_EDGE_CODES.has(violation.code))];
}

export function checkAddEdge(
  graph: WorkflowGraph,
  source: string,
  target: string,
  options: EditCheckOptions & { sourcePort?: string; loop?: string },
): Violation[] {
  const edit: WorkflowEdit = { kind: "addEdge", source, target };
  if (options.sourcePort !== undefined) edit.sourcePort = options.sourcePort;
  if (options.loop !== undefined) edit.loop = options.loop;
  return checkEdit(graph, edit, options);
}

export function checkRemoveEdge(graph: WorkflowGraph, edgeId: string, options: EditCheckOptions): Violation[] {
  return checkEdit(graph, { kind: "removeEdge", edgeId }, options);
}

export function checkAddNode(graph: WorkflowGraph, type: string, options: EditCheckOptions): Violation[] {
  return checkEdit(graph, { kind: "addNode", type }, options);
}

export function checkRemoveNode(graph: WorkflowGraph, nodeId: string, options: EditCheckOptions): Violation[] {
  return checkEdit(graph, { kind: "removeNode", nodeId }, options);
}

/** For the canvas' isValidConnection: whether an edge source → target may be added. */
export function canConnect(graph: WorkflowGraph, source: string, target: string, options: EditCheckOptions & { sourcePort?: string; loop?: string }): boolean {
  return checkAddEdge(graph, source, target, options).length === 0;
}

function checkAddNodeCount(graph: WorkflowGraph, type: string, registry: NodeTypeRegistry): Violation[] {
  const spec = registry.get(type);
  if (!spec) {
    const message = `unknown node type "${type}" (known types: ${registry.types().join(", ")})`;
    return [{ code: "UNKNOWN_NODE_TYPE", message, nodeIds: [], edgeIds: [] }];
  }
  const rule = spec.count;
  if (!rule) return [];
  const existing = countByType(graph.nodes).get(type) ?? [];
  if (existing.length + 1 <= rule.max) return [];
  const ids = existing.map((node) => node.id);
  const message = `cannot add another ${typeLabel(registry, type)} node: ${describeCount(registry, type, rule)} and it has ${quoteList(ids)}`;
  return [{ code: rule.code, message, nodeIds: ids, edgeIds: [] }];
}

function checkRemoveNodeCount(graph: WorkflowGraph, node: WorkflowNode, registry: NodeTypeRegistry): Violation[] {
  const rule = registry.get(node.type)?.count;
  if (!rule) return [];
  const existing = countByType(graph.nodes).get(node.type) ?? [];
  if (existing.length - 1 >= rule.min) return [];
  const message = `${describeNode(registry, node)} cannot be deleted: ${describeCount(registry, node.type, rule)}`;
  return [{ code: rule.code, message, nodeIds: [node.id], edgeIds: [] }];
}

function lockedViolation(edit: WorkflowEdit): Violation {
  const nodeIds = edit.kind === "removeNode" || edit.kind === "updateNode" ? [edit.nodeId] : [];
  const edgeIds = edit.kind === "removeEdge" ? [edit.edgeId] : [];
  if (edit.kind === "addEdge") nodeIds.push(edit.source, edit.target);
  const message = "the workflow cannot be changed while one of its runs is active";
  return { code: "LOCKED_WHILE_RUNNING", message, nodeIds, edgeIds };
}

function requireNode(graph: WorkflowGraph, nodeId: string): WorkflowNode {
  const node = graph.nodes.find((candidate) => candidate.id === nodeId);
  if (!node) throw new WeftError("NODE_NOT_FOUND", `the workflow has no node "${nodeId}"`);
  return node;
}

function requireEdge(graph: WorkflowGraph, edgeId: string): void {
  if (!graph.edges.some((edge) => edge.id === edgeId)) {
    throw new WeftError("EDGE_NOT_FOUND", `the workflow has no edge "${edgeId}"`);
  }
}
