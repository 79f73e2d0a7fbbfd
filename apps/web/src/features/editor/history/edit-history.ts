import { DEFAULT_PORT, type LoopDeclaration, type WorkflowEdge, type WorkflowNode } from "@weft/engine";
import type { WorkflowSettingsDraft } from "../panels/workflow-settings.type";
import type { PipelineSettings } from "../pipeline/pipeline-settings";

/**
 * Undo and redo as server operations. Every edit the canvas makes is recorded as a pair of operations
 * (what undoes it, what does it again); undoing sends the first to the server with the ordinary
 * mutations, redoing the second. Edges are named by what they connect, not by id: an edge added again
 * gets a new id from the server, and later entries must still find it.
 */

/** An edge by what it connects (no two edges of a workflow connect the same port to the same node). */
export interface EdgeKey {
  source: string;
  target: string;
  /** Absent: `out`. */
  sourcePort?: string;
  loop?: string;
}

export interface NodeMove {
  id: string;
  x: number;
  y: number;
}

/** A node's attributes and config as one save sets them; null clears one. */
export interface NodeState {
  content: string | null;
  provider: string | null;
  model: string | null;
  prompt: string | null;
  params: Record<string, unknown> | null;
  config: Record<string, unknown> | null;
}

/** The workflow's settings as one save sets them: the panel's fields, or some of its loops, state and limits. */
export interface SettingsState {
  workflow?: WorkflowSettingsDraft;
  pipeline?: Partial<PipelineSettings>;
}

export type GraphOperation =
  /**
   * Nodes with their ids, settings and positions, then edges between any nodes of the graph; each of
   * `loops` is declared with its first loop edge in `edges` (a paste's copied loops).
   */
  | { kind: "add"; nodes: readonly WorkflowNode[]; edges: readonly EdgeKey[]; loops?: readonly LoopDeclaration[] }
  /** Edges first, then nodes (their remaining edges go with them), then the declarations of `loops`. */
  | { kind: "remove"; nodeIds: readonly string[]; edges: readonly EdgeKey[]; loops?: readonly string[] }
  | { kind: "move"; moves: readonly NodeMove[] }
  | { kind: "update"; nodeId: string; state: Partial<NodeState> }
  | { kind: "settings"; state: SettingsState };

/** The operations on the graph itself (the canvas' edits carry them out; settings go to the settings' savers). */
export type CanvasOperation = Exclude<GraphOperation, { kind: "settings" }>;

export interface HistoryEntry {
  /** What the edit was, for the undo button's title ("Delete 2 nodes"). */
  label: string;
  undo: GraphOperation;
  redo: GraphOperation;
}

export interface EditHistory {
  past: readonly HistoryEntry[];
  future: readonly HistoryEntry[];
}

/** The most edits kept; the oldest go first. */
export const HISTORY_LIMIT = 100;

export const emptyHistory: EditHistory = { past: [], future: [] };

/** A new edit: it can be undone, and what was undone before can no longer be redone. */
export function recordEdit(history: EditHistory, entry: HistoryEntry): EditHistory {
  return { past: [...history.past, entry].slice(-HISTORY_LIMIT), future: [] };
}

/** The entry to undo, and the history once it is undone (it moves to the future). */
export function takeUndo(history: EditHistory): { entry: HistoryEntry; next: EditHistory } | null {
  const entry = history.past.at(-1);
  if (!entry) return null;
  return { entry, next: { past: history.past.slice(0, -1), future: [entry, ...history.future] } };
}

export function takeRedo(history: EditHistory): { entry: HistoryEntry; next: EditHistory } | null {
  const entry = history.future[0];
  if (!entry) return null;
  return { entry, next: { past: [...history.past, entry].slice(-HISTORY_LIMIT), future: history.future.slice(1) } };
}

export function edgeKey(edge: Pick<WorkflowEdge, "source" | "target" | "sourcePort" | "loop">): EdgeKey {
  return {
    source: edge.source,
    target: edge.target,
    ...(edge.sourcePort && edge.sourcePort !== DEFAULT_PORT ? { sourcePort: edge.sourcePort } : {}),
    ...(edge.loop ? { loop: edge.loop } : {}),
  };
}

export function sameEdge(a: EdgeKey, b: EdgeKey): boolean {
  return a.source === b.source && a.target === b.target && (a.sourcePort ?? DEFAULT_PORT) === (b.sourcePort ?? DEFAULT_PORT) && (a.loop ?? null) === (b.loop ?? null);
}

/** The id an edge has in the graph now, if it is there. */
export function findEdgeId(edges: readonly WorkflowEdge[], key: EdgeKey): string | null {
  return edges.find((edge) => sameEdge(edgeKey(edge), key))?.id ?? null;
}

/**
 * Deleting nodes and edges: undone by adding the nodes back as they were (same ids, settings and
 * positions) and every edge that went with them.
 */
export function removalEntry(graph: { nodes: readonly WorkflowNode[]; edges: readonly WorkflowEdge[] }, nodeIds: readonly string[], edgeIds: readonly string[], label: string): HistoryEntry {
  const doomed = new Set(nodeIds);
  const nodes = graph.nodes.filter((node) => doomed.has(node.id));
  const edges = graph.edges.filter((edge) => edgeIds.includes(edge.id) || doomed.has(edge.source) || doomed.has(edge.target)).map(edgeKey);
  return { label, undo: { kind: "add", nodes, edges }, redo: { kind: "remove", nodeIds: nodes.map((node) => node.id), edges } };
}

/** Adding nodes (and edges among them or to the graph, and loops they declare): undone by removing them. */
export function additionEntry(nodes: readonly WorkflowNode[], edges: readonly EdgeKey[], label: string, loops: readonly LoopDeclaration[] = []): HistoryEntry {
  const declared = loops.length > 0;
  return {
    label,
    undo: { kind: "remove", nodeIds: nodes.map((node) => node.id), edges, ...(declared ? { loops: loops.map((loop) => loop.id) } : {}) },
    redo: { kind: "add", nodes, edges, ...(declared ? { loops } : {}) },
  };
}

/** Moving nodes: undone by moving them back. Nodes that did not move are left out; null when none did. */
export function moveEntry(before: readonly NodeMove[], after: readonly NodeMove[], label: string): HistoryEntry | null {
  const from = new Map(before.map((move) => [move.id, move]));
  const moved = after.filter((move) => {
    const was = from.get(move.id);
    return !was || was.x !== move.x || was.y !== move.y;
  });
  if (moved.length === 0) return null;
  const back = moved.flatMap((move) => (from.has(move.id) ? [from.get(move.id)!] : []));
  return { label, undo: { kind: "move", moves: back }, redo: { kind: "move", moves: moved } };
}

/** A node's state as a save would write it: every field the patch names, taken from the node now. */
export function nodeStateOf(node: WorkflowNode, fields: readonly (keyof NodeState)[]): Partial<NodeState> {
  const state: Partial<NodeState> = {};
  for (const field of fields) {
    const value = node[field];
    (state as Record<string, unknown>)[field] = value === undefined ? null : value;
  }
  return state;
}

/** Saving a node's form: undone by saving what the fields held before. */
export function updateEntry(node: WorkflowNode, patch: Partial<NodeState>, label: string): HistoryEntry {
  const fields = Object.keys(patch) as (keyof NodeState)[];
  return { label, undo: { kind: "update", nodeId: node.id, state: nodeStateOf(node, fields) }, redo: { kind: "update", nodeId: node.id, state: patch } };
}

/**
 * Saving workflow settings (the panel shown with nothing selected): undone by saving what the same
 * fields held before. `before` is the whole of what was saved; only the fields `after` sets are kept.
 */
export function settingsEntry(before: { workflow: WorkflowSettingsDraft; pipeline: PipelineSettings }, after: SettingsState, label: string): HistoryEntry {
  const undo: SettingsState = {};
  if (after.workflow) undo.workflow = before.workflow;
  if (after.pipeline) {
    const fields = Object.keys(after.pipeline) as (keyof PipelineSettings)[];
    undo.pipeline = Object.fromEntries(fields.map((field) => [field, before.pipeline[field]]));
  }
  return { label, undo: { kind: "settings", state: undo }, redo: { kind: "settings", state: after } };
}
