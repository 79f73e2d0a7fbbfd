import type { Edge, Node } from "@xyflow/react";
import { DEFAULT_PORT, type LoopDeclaration, type WorkflowEdge, type WorkflowNode } from "@weft/engine";
import type { ValidatedGraph } from "../rules/edit-registry";
import type { NodeTypeCatalogue } from "../../node-types/node-type-catalogue";
import type { NodeStatusValue } from "../../runs/live/run-projection";

/** What a canvas node carries: the workflow node itself plus what the canvas paints on it. */
export type EditorNodeData = {
  node: WorkflowNode;
  /** Its output ports, one source handle each (`out`, or a router's cases, labels, verdicts). */
  ports: readonly string[];
  /** Live state during or after a run; absent before the first run. */
  status?: NodeStatusValue;
  /** Named by a run refusal or a refused edit: painted red. */
  flagged?: boolean;
  /** What the last run said about this node: its description, or the result for the output node. */
  liveText?: string;
  /** During or after a run: badges such as a loop's `2/3`, a map's `7/12`, a cache hit. */
  badges?: readonly string[];
  /** A loop header during or after a run: the grader's reason that started its latest iteration. */
  loopFeedback?: string;
};

/** The xyflow node types the canvas registers (canvas/node-types.ts). */
export type EditorNodeKind = "text" | "model" | "pipeline";
export type EditorFlowNode = Node<EditorNodeData, EditorNodeKind>;
export type EditorEdgeData = { flagged?: boolean; loop?: string; sourcePort?: string };
export type EditorFlowEdge = Edge<EditorEdgeData>;

/** The xyflow node type that renders a workflow node, from its type's `component`. */
export function nodeKindOf(nodeTypes: Pick<NodeTypeCatalogue, "isText" | "usesModel">, type: string): EditorNodeKind {
  if (nodeTypes.isText(type)) return "text";
  return nodeTypes.usesModel(type) ? "model" : "pipeline";
}

export function toFlowNode(nodeTypes: Pick<NodeTypeCatalogue, "isText" | "usesModel">, node: WorkflowNode, ports: readonly string[] = [DEFAULT_PORT]): EditorFlowNode {
  return {
    id: node.id,
    type: nodeKindOf(nodeTypes, node.type),
    position: node.position ?? { x: 0, y: 0 },
    data: { node, ports },
  };
}

/** Every source handle is named by its port, so an edge names the handle it leaves from. */
export function toFlowEdge(edge: WorkflowEdge): EditorFlowEdge {
  const sourcePort = edge.sourcePort ?? DEFAULT_PORT;
  const data: EditorEdgeData = { sourcePort, ...(edge.loop ? { loop: edge.loop } : {}) };
  return { id: edge.id, source: edge.source, target: edge.target, sourceHandle: sourcePort, data, ...(edge.loop ? { className: "wf-edge--loop" } : {}) };
}

/** The engine's view of the canvas, for the rule checks. Positions come from the canvas. */
export function flowToGraph(nodes: readonly EditorFlowNode[], edges: readonly EditorFlowEdge[], settings: Pick<ValidatedGraph, "state" | "limits"> & { loops?: LoopDeclaration[] } = {}): ValidatedGraph {
  return {
    ...settings,
    nodes: nodes.map((flow) => ({ ...flow.data.node, position: flow.position })),
    edges: edges.map((edge) => {
      const port = edge.data?.sourcePort ?? edge.sourceHandle ?? DEFAULT_PORT;
      return {
        id: edge.id,
        source: edge.source,
        target: edge.target,
        ...(port !== DEFAULT_PORT ? { sourcePort: port } : {}),
        ...(edge.data?.loop ? { loop: edge.data.loop } : {}),
      };
    }),
  };
}
