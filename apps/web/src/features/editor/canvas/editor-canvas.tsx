"use client";

import { Background, Controls, ReactFlow, useConnection } from "@xyflow/react";
import type { FinalConnectionState, OnEdgesChange, OnNodesChange } from "@xyflow/react";
import { useCallback } from "react";
import { useT } from "../../../i18n/i18n-provider";
import { useToast } from "../../../ui/toast";
import type { EditorFlowEdge, EditorFlowNode } from "../graph/editor-graph";
import type { ConnectionPlan, LoopPlan } from "../rules/connection-check";
import type { ValidatedGraph } from "../rules/edit-registry";
import { checkDeletion } from "../rules/deletion-check";
import { useConnectionRules } from "../rules/use-connection-rules";
import { violationReason } from "../rules/violation-reason";
import type { GraphNodes } from "../rules/localize-violation";
import { NODE_TYPES } from "./node-types";

export interface NodeMove {
  id: string;
  x: number;
  y: number;
}

interface EditorCanvasProps {
  nodes: EditorFlowNode[];
  edges: EditorFlowEdge[];
  onNodesChange: OnNodesChange<EditorFlowNode>;
  onEdgesChange: OnEdgesChange<EditorFlowEdge>;
  locked: boolean;
  getGraph: () => ValidatedGraph;
  /** A released connection the rules allow: a data edge, or a loop edge back to a node upstream. */
  onConnectPlan: (plan: ConnectionPlan) => void;
  onDeleted: (nodeIds: string[], edgeIds: string[]) => void;
  onMoved: (moves: NodeMove[]) => void;
}

const DELETE_KEYS = ["Delete", "Backspace"];
const FIT_VIEW_OPTIONS = { padding: 0.25, maxZoom: 1.1 };

/**
 * The ReactFlow canvas. Every gesture that changes the graph is checked with the engine's rules first
 * (dragging a connection, Delete/Backspace, the panel's delete button all pass through here); the
 * parent then asks the server, whose answer wins.
 */
export function EditorCanvas(props: EditorCanvasProps) {
  const { nodes, edges, onNodesChange, onEdgesChange, locked, getGraph, onConnectPlan, onDeleted, onMoved } = props;
  const t = useT();
  const toast = useToast();
  const rules = useConnectionRules(getGraph, locked);

  const onConnectEnd = useCallback(
    (_event: MouseEvent | TouchEvent, state: FinalConnectionState) => {
      const refusal = rules.takeRefusal();
      if (state.isValid === false && refusal) {
        const reason = violationReason(t, refusal, getGraph());
        toast.show({ tone: "error", title: `${t("editor.refused.connection")}: ${reason.title}`, message: reason.detail });
      }
    },
    [rules, t, toast],
  );

  const onBeforeDelete = useCallback(
    async ({ nodes: doomedNodes, edges: doomedEdges }: { nodes: EditorFlowNode[]; edges: EditorFlowEdge[] }) => {
      const refusals = checkDeletion(getGraph(), { nodeIds: doomedNodes.map((n) => n.id), edgeIds: doomedEdges.map((e) => e.id) }, { locked });
      if (refusals.length === 0) return true;
      for (const refusal of refusals) {
        const reason = violationReason(t, refusal, getGraph());
        toast.show({ tone: "error", title: `${t("editor.refused.deletion")}: ${reason.title}`, message: reason.detail });
      }
      return false;
    },
    [getGraph, locked, t, toast],
  );

  return (
    <div className="canvas" data-testid="canvas" data-locked={locked ? "true" : undefined}>
      <ReactFlow<EditorFlowNode, EditorFlowEdge>
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        isValidConnection={rules.isValidConnection}
        onConnect={(connection) => {
          const plan = rules.planFor(connection);
          if (plan) onConnectPlan(plan);
        }}
        onConnectEnd={onConnectEnd}
        onBeforeDelete={onBeforeDelete}
        onDelete={({ nodes: gone, edges: goneEdges }) => onDeleted(gone.map((n) => n.id), goneEdges.map((e) => e.id))}
        onNodeDragStop={(_event, _node, dragged) => onMoved(dragged.map((n) => ({ id: n.id, x: n.position.x, y: n.position.y })))}
        nodesConnectable={!locked}
        deleteKeyCode={DELETE_KEYS}
        fitView
        fitViewOptions={FIT_VIEW_OPTIONS}
        minZoom={0.2}
      >
        <Background gap={16} />
        <Controls showInteractive={false} />
      </ReactFlow>
      <ConnectionHint refusal={rules.refusal} loop={rules.loopHint} getGraph={getGraph} />
    </div>
  );
}

/** While a refused connection is being dragged, says why right on the canvas. */
function ConnectionHint({ refusal, loop, getGraph }: { refusal: { code: string; message: string } | null; loop: LoopPlan | null; getGraph: () => GraphNodes }) {
  const t = useT();
  // isValid is false only while the pointer is over a handle the rules refuse.
  const refused = useConnection((connection) => connection.inProgress && connection.isValid === false);
  const closing = useConnection((connection) => connection.inProgress && connection.isValid === true);
  if (closing && loop) {
    return (
      <div className="canvas__hint canvas__hint--loop" role="status" data-testid="loop-hint">
        {t("pipeline.loop.hint", { loop: loop.loop, target: loop.target })}
      </div>
    );
  }
  if (!refused || !refusal) return null;
  const reason = violationReason(t, refusal, getGraph());
  return (
    <div className="canvas__hint" role="status" data-testid="connection-refusal">
      <strong>{reason.title}</strong> <span>{reason.detail}</span>
    </div>
  );
}
