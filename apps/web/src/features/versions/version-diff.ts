/**
 * Two versions of a workflow drawn as one graph: the later side's nodes and edges, plus what the earlier
 * side had and the later one lost, each marked added, removed, changed, moved (position only) or the
 * same, with the changed fields the API's compareWorkflowVersions listed for it.
 */

export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

export interface ItemChanges {
  added: readonly string[];
  removed: readonly string[];
  changed: readonly { id: string; fields: readonly FieldChange[] }[];
}

export interface SideNode {
  id: string;
  type: string;
  provider?: string | null;
  model?: string | null;
  ports?: readonly string[];
  position: { x: number; y: number };
}

export interface SideEdge {
  id: string;
  source: string;
  target: string;
  sourcePort?: string | null;
  loop?: string | null;
}

export interface GraphSide {
  nodes: readonly SideNode[];
  edges: readonly SideEdge[];
}

export type DiffStatus = "added" | "removed" | "changed" | "moved" | "same";

export interface DiffNode {
  id: string;
  type: string;
  ports?: readonly string[];
  /** "provider / model" when the node has a model. */
  label: string | null;
  position: { x: number; y: number };
  status: DiffStatus;
  /** What changed, position fields included (a view may leave them out). */
  fields: readonly FieldChange[];
}

export interface DiffEdge {
  id: string;
  source: string;
  target: string;
  sourcePort?: string | null;
  loop?: string | null;
  status: DiffStatus;
  fields: readonly FieldChange[];
}

export interface GraphDiff {
  nodes: DiffNode[];
  edges: DiffEdge[];
}

/** A layout change: the element is where it was in every other respect. */
export const isPositionField = (change: FieldChange): boolean => change.field === "position" || change.field.startsWith("position.");

function statusOf(id: string, changes: ItemChanges, changed: ReadonlyMap<string, readonly FieldChange[]>): DiffStatus {
  if (changes.added.includes(id)) return "added";
  const fields = changed.get(id);
  if (!fields || fields.length === 0) return "same";
  return fields.every(isPositionField) ? "moved" : "changed";
}

const labelOf = (node: SideNode): string | null => (node.model ? `${node.provider ?? "?"} / ${node.model}` : null);

export function diffGraph(from: GraphSide, to: GraphSide, comparison: { nodes: ItemChanges; edges: ItemChanges }): GraphDiff {
  const nodeFields = new Map(comparison.nodes.changed.map((item) => [item.id, item.fields]));
  const edgeFields = new Map(comparison.edges.changed.map((item) => [item.id, item.fields]));
  const removedNodes = new Set(comparison.nodes.removed);
  const removedEdges = new Set(comparison.edges.removed);
  const nodes: DiffNode[] = [
    ...to.nodes.map((node) => ({
      id: node.id,
      type: node.type,
      label: labelOf(node),
      position: node.position,
      ...(node.ports ? { ports: node.ports } : {}),
      status: statusOf(node.id, comparison.nodes, nodeFields),
      fields: nodeFields.get(node.id) ?? [],
    })),
    ...from.nodes
      .filter((node) => removedNodes.has(node.id))
      .map((node) => ({ id: node.id, type: node.type, label: labelOf(node), position: node.position, ...(node.ports ? { ports: node.ports } : {}), status: "removed" as const, fields: [] })),
  ];
  const edges: DiffEdge[] = [
    ...to.edges.map((edge) => ({ ...pick(edge), status: statusOf(edge.id, comparison.edges, edgeFields), fields: edgeFields.get(edge.id) ?? [] })),
    ...from.edges.filter((edge) => removedEdges.has(edge.id)).map((edge) => ({ ...pick(edge), status: "removed" as const, fields: [] })),
  ];
  return { nodes, edges };
}

const pick = ({ id, source, target, sourcePort, loop }: SideEdge): SideEdge => ({ id, source, target, ...(sourcePort ? { sourcePort } : {}), ...(loop ? { loop } : {}) });
