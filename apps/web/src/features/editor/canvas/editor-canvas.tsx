"use client";

import { Background, Controls, MiniMap, ReactFlow, SelectionMode, useConnection, useNodesInitialized, useReactFlow, useStore, type ReactFlowState } from "@xyflow/react";
import type { FinalConnectionState, OnEdgesChange, OnNodesChange } from "@xyflow/react";
import { useCallback, useEffect, useMemo, useRef, type DragEvent, type MouseEvent as ReactMouseEvent, type ReactNode } from "react";
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
import { readableFit } from "../graph/readable-fit";

import type { NodeMove } from "../history/edit-history";
import { flowAriaLabels } from "../../graph-view/flow-aria-labels";

interface EditorCanvasProps {
  nodes: EditorFlowNode[];
  edges: EditorFlowEdge[];
  onNodesChange: OnNodesChange<EditorFlowNode>;
  onEdgesChange: OnEdgesChange<EditorFlowEdge>;
  locked: boolean;
  getGraph: () => ValidatedGraph;
  /** A released connection the rules allow: a data edge, or a loop edge back to a node upstream. */
  onConnectPlan: (plan: ConnectionPlan) => void;
  /** Nodes and edges deleted on the canvas; `before` is the graph as it was (for undo). */
  onDeleted: (nodeIds: string[], edgeIds: string[], before: ValidatedGraph) => void;
  /** Nodes dragged to new positions; `before` where they were when the drag started. */
  onMoved: (moves: NodeMove[], before: NodeMove[]) => void;
  /** Right-click on a node (its id) or on the empty canvas (null), at a point of the page and of the graph. */
  onMenu?: (nodeId: string | null, at: { x: number; y: number }, flowAt: { x: number; y: number }) => void;
  /** A palette entry dropped on the canvas, where it was dropped. */
  onDropType?: (type: string, position: { x: number; y: number }) => void;
  /** Drawn over the canvas (its toolbar). */
  children?: ReactNode;
  /**
   * Whether Delete and Backspace delete this canvas' selection (default true). ReactFlow listens on the
   * whole document, so a canvas under a body opened over it must not: the key is the top canvas'.
   */
  keysActive?: boolean;
}

/** The drag-and-drop data type a palette entry carries: the node type's name. */
export const NODE_TYPE_DRAG = "application/x-weft-node-type";

const DELETE_KEYS = ["Delete", "Backspace"];
const MULTI_SELECT_KEYS = ["Control", "Meta"];
const MINIMAP_SIZE = { width: 168, height: 104 };

/**
 * The ReactFlow canvas. Every gesture that changes the graph is checked with the engine's rules first
 * (dragging a connection, Delete/Backspace, the panel's delete button all pass through here); the
 * parent then asks the server, whose answer wins.
 */
export function EditorCanvas(props: EditorCanvasProps) {
  const { nodes, edges, onNodesChange, onEdgesChange, locked, getGraph, onConnectPlan, onDeleted, onMoved, onMenu, onDropType, children, keysActive = true } = props;
  const t = useT();
  const toast = useToast();
  const flow = useReactFlow();
  const rules = useConnectionRules(getGraph, locked);
  const ariaLabels = useMemo(() => flowAriaLabels(t), [t]);
  // The graph as it was when a deletion was approved, and where dragged nodes started: what undo restores.
  const beforeDelete = useRef<ValidatedGraph | null>(null);
  const beforeDrag = useRef<NodeMove[]>([]);
  const menu = (nodeId: string | null) => (event: ReactMouseEvent | MouseEvent) => {
    if (!onMenu) return;
    event.preventDefault();
    onMenu(nodeId, { x: event.clientX, y: event.clientY }, flow.screenToFlowPosition({ x: event.clientX, y: event.clientY }));
  };
  const onDragOver = (event: DragEvent) => {
    if (!onDropType || !event.dataTransfer.types.includes(NODE_TYPE_DRAG)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
  };
  const onDrop = (event: DragEvent) => {
    const type = event.dataTransfer.getData(NODE_TYPE_DRAG);
    if (!onDropType || !type) return;
    event.preventDefault();
    // The card's middle lands under the pointer.
    const at = flow.screenToFlowPosition({ x: event.clientX, y: event.clientY });
    onDropType(type, { x: Math.round(at.x - 90), y: Math.round(at.y - 40) });
  };

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
      if (refusals.length === 0) {
        beforeDelete.current = getGraph();
        return true;
      }
      for (const refusal of refusals) {
        const reason = violationReason(t, refusal, getGraph());
        toast.show({ tone: "error", title: `${t("editor.refused.deletion")}: ${reason.title}`, message: reason.detail });
      }
      return false;
    },
    [getGraph, locked, t, toast],
  );

  return (
    <div className="canvas" data-testid="canvas" data-locked={locked ? "true" : undefined} onDragOver={onDragOver} onDrop={onDrop}>
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
        onDelete={({ nodes: gone, edges: goneEdges }) => onDeleted(gone.map((n) => n.id), goneEdges.map((e) => e.id), beforeDelete.current ?? getGraph())}
        onNodeDragStart={(_event, _node, dragged) => {
          beforeDrag.current = dragged.map((n) => ({ id: n.id, x: n.position.x, y: n.position.y }));
        }}
        onNodeDragStop={(_event, _node, dragged) => onMoved(dragged.map((n) => ({ id: n.id, x: n.position.x, y: n.position.y })), beforeDrag.current)}
        onNodeContextMenu={(event, node) => menu(node.id)(event)}
        onPaneContextMenu={(event) => menu(null)(event)}
        selectionMode={SelectionMode.Partial}
        multiSelectionKeyCode={MULTI_SELECT_KEYS}
        nodesConnectable={!locked}
        deleteKeyCode={keysActive ? DELETE_KEYS : null}
        minZoom={0.2}
        ariaLabelConfig={ariaLabels}
      >
        <Background gap={16} />
        <Controls showInteractive={false} />
        <OverviewMap label={t("canvas.minimap")} />
        <InitialFit />
        {children}
      </ReactFlow>
      <ConnectionHint refusal={rules.refusal} loop={rules.loopHint} getGraph={getGraph} />
    </div>
  );
}

/** Whether some card lies outside the visible part of the canvas (re-read as the view pans and zooms). */
const partlyHidden = (state: ReactFlowState): boolean => {
  const [x, y, zoom] = state.transform;
  for (const node of state.nodeLookup.values()) {
    const at = node.internals.positionAbsolute;
    const left = at.x * zoom + x;
    const top = at.y * zoom + y;
    const right = left + (node.measured.width ?? 0) * zoom;
    const bottom = top + (node.measured.height ?? 0) * zoom;
    if (left < 0 || top < 0 || right > state.width || bottom > state.height) return true;
  }
  return false;
};

/**
 * The minimap, shown while the graph does not fit the view: then it is the way around it; while the
 * whole graph is in view it would only cover cards.
 */
function OverviewMap({ label }: { label: string }) {
  const needed = useStore(partlyHidden);
  return needed ? <MiniMap pannable zoomable ariaLabel={label} nodeStrokeWidth={3} className="canvas__minimap" style={MINIMAP_SIZE} /> : null;
}

/** Once the cards are drawn and measured: the graph in view at a zoom its text can be read at (readable-fit.ts). */
function InitialFit() {
  const initialized = useNodesInitialized();
  const flow = useReactFlow<EditorFlowNode, EditorFlowEdge>();
  const done = useRef(false);
  useEffect(() => {
    if (!initialized || done.current) return;
    done.current = true;
    void readableFit(flow, 0);
  }, [flow, initialized]);
  return null;
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
