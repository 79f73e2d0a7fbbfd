import type { Edge, Node } from "@xyflow/react";
import type { WorkflowEdge, WorkflowGraph, WorkflowNode } from "@weft/engine";
import type { NodeTypeCatalogue } from "../../node-types/node-type-catalogue";
import type { NodeStatusValue } from "../../runs/live/run-projection";

/** What a canvas node carries: the workflow node itself plus what the canvas paints on it. */
export type EditorNodeData = {
  node: WorkflowNode;
  /** Live state during or after a run; absent before the first run. */
  status?: NodeStatusValue;
  /** Named by a run refusal or a refused edit: painted red. */
  flagged?: boolean;
  /** What the last run said about this node: its description, or the result for the output node. */
  liveText?: string;
};

export type EditorFlowNode = Node<EditorNodeData, "text" | "model">;
export type EditorFlowEdge = Edge<{ flagged?: boolean }>;

export function toFlowNode(nodeTypes: Pick<NodeTypeCatalogue, "isText">, node: WorkflowNode): EditorFlowNode {
  return {
    id: node.id,
    // The xyflow node type that renders it, from the type's `component`.
    type: nodeTypes.isText(node.type) ? "text" : "model",
    position: node.position ?? { x: 0, y: 0 },
    data: { node },
  };
}

export function toFlowEdge(edge: WorkflowEdge): EditorFlowEdge {
  return { id: edge.id, source: edge.source, target: edge.target };
}

/** The engine's view of the canvas, for the rule checks. Positions come from the canvas. */
export function flowToGraph(nodes: readonly EditorFlowNode[], edges: readonly Edge[]): WorkflowGraph {
  return {
    nodes: nodes.map((flow) => ({ ...flow.data.node, position: flow.position })),
    edges: edges.map((edge) => ({ id: edge.id, source: edge.source, target: edge.target })),
  };
}
