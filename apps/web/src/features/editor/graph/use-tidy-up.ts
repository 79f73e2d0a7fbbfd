"use client";

import { useReactFlow } from "@xyflow/react";
import { useCallback } from "react";
import { useNodeTypes } from "../../node-types/node-types-context";
import { autoLayout, estimatedCardSize } from "../../graph-view/auto-layout";
import type { NodeMove } from "../history/edit-history";
import type { EditorFlowEdge, EditorFlowNode } from "./editor-graph";
import { readableFit } from "./readable-fit";

/**
 * "Tidy up": the canvas' nodes laid out in layers (auto-layout.ts) with their drawn sizes, then brought
 * into view. Answers the moves (before and after) so the caller saves them and records them for undo.
 */
export function useTidyUp() {
  const flow = useReactFlow<EditorFlowNode, EditorFlowEdge>();
  const nodeTypes = useNodeTypes();
  return useCallback(async (): Promise<{ before: NodeMove[]; after: NodeMove[] }> => {
    const nodes = flow.getNodes();
    const layoutNodes = nodes.map((node) => {
      const ports = nodeTypes.isSink(node.data.node.type) ? [] : node.data.ports;
      const estimate = estimatedCardSize(ports);
      return { id: node.id, ports, width: node.measured?.width ?? estimate.width, height: node.measured?.height ?? estimate.height };
    });
    const edges = flow.getEdges().map((edge) => ({ source: edge.source, target: edge.target, sourcePort: edge.data?.sourcePort ?? edge.sourceHandle ?? null, loop: edge.data?.loop ?? null }));
    const positions = await autoLayout(layoutNodes, edges);
    const before = nodes.map((node) => ({ id: node.id, x: node.position.x, y: node.position.y }));
    const after = nodes.map((node) => ({ id: node.id, ...(positions.get(node.id) ?? node.position) }));
    const to = new Map(after.map((move) => [move.id, move]));
    flow.setNodes((all) => all.map((node) => (to.has(node.id) ? { ...node, position: { x: to.get(node.id)!.x, y: to.get(node.id)!.y } } : node)));
    void readableFit(flow, 200, positions);
    return { before, after };
  }, [flow, nodeTypes]);
}
