"use client";

import { applyNodeChanges, Background, Handle, Position, ReactFlow, type Edge, type Node, type NodeProps } from "@xyflow/react";
import { useEffect, useMemo, useState } from "react";
import type { AnyStatus } from "../status/status-badge";
import { statusTone } from "../status/status-badge";
import { useNodeTypes } from "../../node-types/node-types-context";
import { useNodeTypeLabel } from "../../node-types/use-node-type-label";
import { layeredPositions, type SnapshotGraph } from "./run-snapshot";

type RunNodeData = { nodeType: string; label: string | null; status: AnyStatus; selected: boolean; source: boolean; sink: boolean };

/** A read-only node: type, id, model, tinted by the node's state in this run. */
function RunNodeCard({ id, data }: NodeProps<Node<RunNodeData>>) {
  const typeLabel = useNodeTypeLabel();
  const classes = ["run-node", `run-node--${statusTone(data.status)}`, data.selected ? "run-node--selected" : ""];
  return (
    <div className={classes.join(" ")} data-node-id={id} data-status={data.status}>
      {data.source ? null : <Handle type="target" position={Position.Left} isConnectable={false} />}
      <div className="run-node__type">{typeLabel(data.nodeType)}</div>
      <div className="run-node__id">{id}</div>
      {data.label ? <div className="muted">{data.label}</div> : null}
      {data.sink ? null : <Handle type="source" position={Position.Right} isConnectable={false} />}
    </div>
  );
}

// Declared once at module scope so ReactFlow does not remount nodes on every render.
const NODE_TYPES = { runNode: RunNodeCard };

export function RunGraph({
  graph,
  statuses,
  selected,
  onSelect,
}: {
  graph: SnapshotGraph;
  statuses: Record<string, AnyStatus>;
  selected: string | null;
  onSelect: (id: string) => void;
}) {
  const nodeTypes = useNodeTypes();
  const positions = useMemo(() => layeredPositions(graph), [graph]);
  // Nodes live in state so ReactFlow's measurements (applied through onNodesChange) survive status
  // updates: a node object rebuilt without them would be hidden until it is measured again.
  const [nodes, setNodes] = useState<Node<RunNodeData>[]>([]);
  useEffect(() => {
    setNodes(
      graph.nodes.map((node) => ({
        id: node.id,
        type: "runNode",
        position: positions.get(node.id) ?? { x: 0, y: 0 },
        data: { nodeType: node.type, label: node.label, status: "PENDING", selected: false, source: nodeTypes.isSource(node.type), sink: nodeTypes.isSink(node.type) },
        draggable: false,
        connectable: false,
      })),
    );
  }, [graph, positions, nodeTypes]);
  useEffect(() => {
    setNodes((current) =>
      current.map((node) => {
        const status = statuses[node.id] ?? "PENDING";
        const isSelected = node.id === selected;
        return node.data.status === status && node.data.selected === isSelected ? node : { ...node, data: { ...node.data, status, selected: isSelected } };
      }),
    );
  }, [nodes.length, statuses, selected]);
  const edges = useMemo<Edge[]>(
    () =>
      graph.edges.map((edge) => ({
        id: edge.id,
        source: edge.source,
        target: edge.target,
        animated: statuses[edge.target] === "RUNNING",
      })),
    [graph, statuses],
  );
  return (
    <div className="run-graph">
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        onNodesChange={(changes) => setNodes((current) => applyNodeChanges(changes, current))}
        nodesDraggable={false}
        nodesConnectable={false}
        edgesFocusable={false}
        deleteKeyCode={null}
        fitView
        fitViewOptions={{ padding: 0.2 }}
        proOptions={{ hideAttribution: true }}
        onNodeClick={(_, node) => onSelect(node.id)}
      >
        <Background gap={16} />
      </ReactFlow>
    </div>
  );
}
