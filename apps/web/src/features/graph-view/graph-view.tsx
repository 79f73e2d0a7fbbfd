"use client";

import { applyNodeChanges, Background, Handle, Position, ReactFlow, type Edge, type Node, type NodeProps } from "@xyflow/react";
import { useEffect, useMemo, useRef, useState } from "react";
import { useNodeTypes } from "../node-types/node-types-context";
import { useNodeTypeLabel } from "../node-types/use-node-type-label";
import "./graph-view.css";
import { flowAriaLabels } from "./flow-aria-labels";
import { useFittedLayout, type DrawnCard } from "./use-fitted-layout";
import { FIT_PADDING } from "./fit-layout";
import { useT } from "../../i18n/i18n-provider";

/** A node as a read-only graph shows it: what it is, where, and the tone that colours it. */
export interface GraphViewNode {
  id: string;
  type: string;
  /** A second line under the id, e.g. "offline / echo". */
  label: string | null;
  position: { x: number; y: number };
  /** Colours the card (`graph-node--<tone>`): a run status, a change in a comparison. */
  tone: string;
  /** Written on the card as `data-state`, for tests and styles (a run status, a change). */
  state: string;
  /** A short badge in the card's corner ("2/3", "changed"). */
  badge?: string;
  /** One line under the label, whole on hover (a loop header's latest feedback); `label` names it for screen readers. */
  note?: { text: string; label: string };
  /** Output ports beyond the one `out`: a labelled source handle each (a router's cases or verdicts). */
  ports?: readonly string[];
}

export interface GraphViewEdge {
  id: string;
  source: string;
  target: string;
  /** The port it leaves from (its source handle), when the source has several. */
  sourcePort?: string;
  /** A loop edge's label ("regen ≤ 3"). */
  label?: string;
  /** Set on a loop edge (the loop it closes): drawn back to its header, not laid out. */
  loop?: string;
  tone?: string;
  animated?: boolean;
}

type CardData = { node: GraphViewNode; selected: boolean; source: boolean; sink: boolean };

/** A read-only card: type, id, label, tinted by its tone. Handles only where the type has edges. */
function GraphViewCard({ id, data }: NodeProps<Node<CardData>>) {
  const typeLabel = useNodeTypeLabel();
  const { node } = data;
  const classes = ["graph-node", `graph-node--${node.tone}`, data.selected ? "graph-node--selected" : ""];
  return (
    <div className={classes.join(" ")} data-node-id={id} data-state={node.state}>
      {data.source ? null : <Handle type="target" position={Position.Left} isConnectable={false} />}
      <div className="graph-node__type">{typeLabel(node.type)}</div>
      <div className="graph-node__id" translate="no">
        {id}
      </div>
      {node.label ? (
        <div className="muted" translate="no">
          {node.label}
        </div>
      ) : null}
      {node.note ? (
        <p className="graph-node__note" translate="no" title={node.note.text} data-testid={`graph-note-${id}`}>
          <span className="visually-hidden">{node.note.label}: </span>
          {node.note.text}
        </p>
      ) : null}
      {node.badge ? <span className="graph-node__badge">{node.badge}</span> : null}
      {data.sink ? null : <SourceHandles ports={node.ports} />}
    </div>
  );
}

/** One `out` handle, or a labelled handle per port, each named by its port as the edges name it. */
function SourceHandles({ ports }: { ports: readonly string[] | undefined }) {
  if (!ports || (ports.length === 1 && ports[0] === "out")) return <Handle type="source" id="out" position={Position.Right} isConnectable={false} />;
  return (
    <ul className="graph-node__ports">
      {ports.map((port) => (
        <li key={port} data-port={port} translate="no">
          {port}
          <Handle type="source" id={port} position={Position.Right} isConnectable={false} />
        </li>
      ))}
    </ul>
  );
}

// Declared once at module scope so ReactFlow does not remount nodes on every render.
const CARD_TYPES = { card: GraphViewCard };

/**
 * A workflow graph to look at, not to edit: the run page's graph as executed and the comparison of two
 * versions. Nodes stay in state with ReactFlow's measurements (applied through onNodesChange), so new
 * tones or badges repaint them without hiding them until they are measured again. With `autoLayout` the
 * cards are drawn once unseen to measure them, laid out from those sizes by the editor's layout fitted
 * to this canvas (fit-layout.ts), and the canvas is drawn again fitted to them.
 */
export function GraphView({
  nodes: viewNodes,
  edges: viewEdges,
  selected,
  onSelect,
  className = "graph-view",
  fitWhole = false,
  autoLayout = false,
}: {
  nodes: readonly GraphViewNode[];
  edges: readonly GraphViewEdge[];
  selected: string | null;
  onSelect?: (id: string) => void;
  className?: string;
  /**
   * Fit the whole graph even when its text gets small (a comparison of two versions); else ReactFlow's
   * 0.5 at least. With `autoLayout`, a long graph is folded into rows and the canvas may grow to keep it readable.
   */
  fitWhole?: boolean;
  /** Lay the cards out (ELK, as the editor's Tidy up) instead of drawing them at their positions. */
  autoLayout?: boolean;
}) {
  const nodeTypes = useNodeTypes();
  const t = useT();
  const ariaLabels = useMemo(() => flowAriaLabels(t), [t]);
  const [nodes, setNodes] = useState<Node<CardData>[]>([]);
  const box = useRef<HTMLDivElement>(null);
  const cards = useMemo<DrawnCard[]>(
    () => nodes.map((node) => ({ id: node.id, ports: node.data.sink ? [] : (node.data.node.ports ?? ["out"]), width: node.measured?.width, height: node.measured?.height })),
    [nodes],
  );
  const fitted = useFittedLayout({ enabled: autoLayout, cards, edges: viewEdges, box, whole: fitWhole });
  useEffect(() => {
    setNodes((current) => {
      const measured = new Map(current.map((node) => [node.id, node.measured]));
      return viewNodes.map((node) => ({
        id: node.id,
        type: "card",
        position: fitted.positions?.get(node.id) ?? node.position,
        data: { node, selected: node.id === selected, source: nodeTypes.isSource(node.type), sink: nodeTypes.isSink(node.type) },
        draggable: false,
        connectable: false,
        ...(measured.get(node.id) ? { measured: measured.get(node.id) } : {}),
      }));
    });
  }, [viewNodes, selected, nodeTypes, fitted.positions]);
  const edges = useMemo<Edge[]>(
    () =>
      viewEdges.map((edge) => ({
        id: edge.id,
        source: edge.source,
        target: edge.target,
        sourceHandle: edge.sourcePort ?? "out",
        animated: edge.animated ?? false,
        ...(edge.label ? { label: edge.label } : {}),
        ...(edge.tone ? { className: `graph-edge--${edge.tone}` } : {}),
      })),
    [viewEdges],
  );
  return (
    <div className={fitted.measuring ? `${className} graph-view--measuring` : className} ref={box} style={fitted.height ? { height: fitted.height } : undefined}>
      <ReactFlow
        // Drawn anew once laid out, so it fits the laid-out cards in the canvas' final size.
        key={fitted.key}
        nodes={nodes}
        edges={edges}
        nodeTypes={CARD_TYPES}
        onNodesChange={(changes) => setNodes((current) => applyNodeChanges(changes, current))}
        nodesDraggable={false}
        nodesConnectable={false}
        edgesFocusable={false}
        deleteKeyCode={null}
        fitView
        fitViewOptions={{ padding: FIT_PADDING, ...(fitWhole ? { minZoom: 0.1 } : {}) }}
        minZoom={fitWhole ? 0.1 : 0.5}
        ariaLabelConfig={ariaLabels}
        proOptions={{ hideAttribution: true }}
        {...(onSelect ? { onNodeClick: (_: unknown, node: Node) => onSelect(node.id) } : {})}
      >
        <Background gap={16} />
      </ReactFlow>
    </div>
  );
}
