"use client";

import { ReactFlowProvider, useEdgesState, useNodesInitialized, useNodesState, useReactFlow } from "@xyflow/react";
import { checkAddNode, type JsonValue, type LoopDeclaration, type WorkflowGraph, type WorkflowNode } from "@weft/engine";
import { Fragment, useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { UserErrorFieldsFragment } from "@/gql/graphql";
import { useT } from "../../../i18n/i18n-provider";
import { Button } from "../../../ui/button";
import { useToast } from "../../../ui/toast";
import { useNodeTypes } from "../../node-types/node-types-context";
import { EditorCanvas } from "../canvas/editor-canvas";
import { findFreePosition } from "../graph/free-position";
import { flowToGraph, toFlowEdge, toFlowNode, type EditorFlowEdge, type EditorFlowNode } from "../graph/editor-graph";
import type { NodePatch, NodeSaveResult } from "../graph/use-graph-edits";
import { NodePalette } from "../palette/node-palette";
import { NodePanel } from "../panels/node-panel";
import type { KnowledgeBaseOption, ProviderOption } from "../panels/panel-options.type";
import { LoopDialog } from "../pipeline/loop-dialog";
import type { ConnectionPlan, LoopPlan } from "../rules/connection-check";
import { EDIT_REGISTRY } from "../rules/edit-registry";
import { violationReason } from "../rules/violation-reason";
import { needsLayout } from "../../graph-view/auto-layout";
import { useTidyUp } from "../graph/use-tidy-up";
import { freshEdgeId, freshNodeId, portsOf, readBody, writeBody } from "./body-graph";
import { withFreeBodyIds } from "../clipboard/graph-clipboard";
import { useBodyHistory } from "./use-body-history";

interface BodyEditorProps {
  /** The map or subgraph node whose body is edited. */
  owner: WorkflowNode;
  /** Every node id of the workflow, bodies included: a new body node gets an id none has. */
  takenIds: ReadonlySet<string>;
  providers: readonly ProviderOption[];
  knowledgeBases: readonly KnowledgeBaseOption[];
  channels: readonly string[];
  readOnly: boolean;
  /** Saves the owner's config with the new body (the server checks the body's rules: MAP_BODY_INVALID). */
  onSave: (patch: NodePatch) => Promise<NodeSaveResult>;
  /** The way back, outermost first: the workflow, then each body this one sits in (selecting one closes this body). */
  trail: readonly { label: string; onSelect: () => void }[];
  /** What a run says about the body's nodes (their state, text and badges), drawn on them. */
  decorate?: (nodes: EditorFlowNode[]) => EditorFlowNode[];
  /** Inside another body: saving hands the body to the enclosing one, which is saved with the workflow. */
  nested?: boolean;
}

/** A map's or subgraph's body on its own canvas: drilled into from the node's settings, saved whole. */
export function BodyEditor(props: BodyEditorProps) {
  return (
    <ReactFlowProvider>
      <BodyCanvas {...props} />
    </ReactFlowProvider>
  );
}

function BodyCanvas({ owner, takenIds, providers, knowledgeBases, channels, readOnly, onSave, trail, decorate, nested = false }: BodyEditorProps) {
  const t = useT();
  const toast = useToast();
  const nodeTypes = useNodeTypes();
  const flow = useReactFlow<EditorFlowNode, EditorFlowEdge>();
  const initial = useMemo(() => readBody(owner.config), [owner.config]);
  const [nodes, setNodes, onNodesChange] = useNodesState<EditorFlowNode>(initial.nodes.map((node) => toFlowNode(nodeTypes, node, portsOf(node))));
  const [edges, setEdges, onEdgesChange] = useEdgesState<EditorFlowEdge>(initial.edges.map(toFlowEdge));
  const [loops, setLoops] = useState<LoopDeclaration[]>(initial.loops ?? []);
  const [pendingLoop, setPendingLoop] = useState<LoopPlan | null>(null);
  const [refusals, setRefusals] = useState<readonly UserErrorFieldsFragment[]>([]);
  const [busy, setBusy] = useState(false);
  const [dirty, setDirty] = useState(false);
  const getGraph = useCallback(() => flowToGraph(flow.getNodes(), flow.getEdges(), { loops }), [flow, loops]);
  // A map or subgraph node inside this body, open on a canvas of its own over this one.
  const [innerOf, setInnerOf] = useState<string | null>(null);
  const history = useBodyHistory({
    snapshot: () => JSON.stringify(flowToGraph(nodes, edges, { loops })),
    restore: (state, saved) => {
      const graph = JSON.parse(state) as WorkflowGraph;
      setNodes(graph.nodes.map((node) => toFlowNode(nodeTypes, node, portsOf(node))));
      setEdges(graph.edges.map(toFlowEdge));
      setLoops(graph.loops ?? []);
      setDirty(!saved);
    },
    active: innerOf === null && pendingLoop === null,
    locked: readOnly,
  });
  const change = () => {
    setDirty(true);
    history.commit();
  };
  const tidyUp = useTidyUp();
  // Bodies written by hand (the seed templates) carry no positions: laid out in layers once drawn.
  const measured = useNodesInitialized();
  const laidOut = useRef(false);
  useEffect(() => {
    if (laidOut.current || !measured || !needsLayout(initial.nodes)) return;
    laidOut.current = true;
    // The laid-out body is where undo stops: the layout is not an edit of the user's.
    void tidyUp().then(history.rebase);
  }, [initial.nodes, measured, tidyUp, history.rebase]);

  const addNode = (type: string) => {
    const refusal = checkAddNode(getGraph(), type, { registry: EDIT_REGISTRY, locked: readOnly })[0];
    if (refusal) return toast.show({ tone: "error", title: t("editor.palette.refused"), message: violationReason(t, refusal, getGraph()).detail });
    const used = new Set([...takenIds, ...flow.getNodes().map((node) => node.id)]);
    const position = findFreePosition(flow.getNodes().map((node) => node.position), { x: 0, y: 0 });
    const defaults = nodeTypes.get(type)?.defaultConfig;
    const config = defaults ? withFreeBodyIds(defaults as Record<string, JsonValue>, used) : null;
    const node: WorkflowNode = { id: freshNodeId(type, used), type, position, ...(config ? { config } : {}) };
    setNodes((all) => [...all.map((n) => ({ ...n, selected: false })), { ...toFlowNode(nodeTypes, node, portsOf(node)), selected: true }]);
    change();
  };

  const connect = (plan: ConnectionPlan, loop?: string) => {
    const edge = { id: freshEdgeId(getGraph().edges), source: plan.source, target: plan.target, sourcePort: plan.sourcePort, ...(loop ? { loop } : {}) };
    setEdges((all) => [...all, toFlowEdge(edge)]);
    change();
  };

  const updateNode = async (nodeId: string, patch: NodePatch): Promise<NodeSaveResult> => {
    setNodes((all) =>
      all.map((flowNode) => {
        if (flowNode.id !== nodeId) return flowNode;
        const node = applyPatch(flowNode.data.node, patch);
        return { ...flowNode, data: { ...flowNode.data, node, ports: portsOf(node) } };
      }),
    );
    change();
    return { ok: true, errors: [] };
  };

  async function save() {
    const graph: WorkflowGraph = getGraph();
    setBusy(true);
    const result = await onSave({ config: writeBody(owner.config, graph) });
    setBusy(false);
    setRefusals(result.errors);
    if (result.ok) {
      setDirty(false);
      history.saved();
    }
  }

  const flagged = useMemo(() => new Set(refusals.flatMap((error) => error.nodeIds)), [refusals]);
  const shown = useMemo(() => {
    const marked = nodes.map((node) => (flagged.has(node.id) ? { ...node, data: { ...node.data, flagged: true } } : node));
    return decorate ? decorate(marked) : marked;
  }, [nodes, flagged, decorate]);
  const selected = nodes.filter((node) => node.selected);
  const selectedNode = selected.length === 1 ? selected[0] : undefined;
  const inner = innerOf ? nodes.find((node) => node.id === innerOf) : undefined;
  const leave = () => !dirty || window.confirm(t("pipeline.body.discard"));

  return (
    <div className="body-editor editor" data-testid="body-editor">
      <div className="editor__toolbar">
        <nav className="breadcrumb" aria-label={t("pipeline.body.breadcrumb")} data-testid="body-breadcrumb">
          {trail.map((crumb) => (
            <Fragment key={crumb.label}>
              <button type="button" className="link-button" onClick={() => leave() && crumb.onSelect()}>
                {crumb.label}
              </button>
              <span aria-hidden="true"> › </span>
            </Fragment>
          ))}
          <strong>{t("pipeline.body.title", { node: owner.id })}</strong>
        </nav>
        <span style={{ flex: 1 }} />
        {dirty ? <span className="muted">{t("pipeline.body.unsaved")}</span> : null}
        <Button size="sm" disabled={!history.canUndo} title={t("pipeline.body.undo")} onClick={history.undo} data-testid="body-undo">
          {t("canvas.history.undo")}
        </Button>
        <Button size="sm" disabled={!history.canRedo} title={t("pipeline.body.redo")} onClick={history.redo} data-testid="body-redo">
          {t("canvas.history.redo")}
        </Button>
        <Button size="sm" onClick={() => void tidyUp().then(change)} data-testid="tidy-up">
          {t("canvas.tidyUp")}
        </Button>
        <Button variant="primary" busy={busy} disabled={readOnly || !dirty} onClick={() => void save()} title={nested ? t("pipeline.body.applyHelp") : undefined}>
          {nested ? t("pipeline.body.apply") : t("pipeline.body.save")}
        </Button>
      </div>
      <NodePalette disabled={readOnly} onAdd={addNode} />
      <EditorCanvas
        keysActive={innerOf === null}
        nodes={shown}
        edges={edges}
        onNodesChange={(changes) => {
          if (changes.some((c) => c.type === "position" && c.dragging === false)) change();
          onNodesChange(changes);
        }}
        onEdgesChange={onEdgesChange}
        locked={readOnly}
        getGraph={getGraph}
        onConnectPlan={(plan) => {
          if (plan.kind === "loop" && !plan.declared) setPendingLoop(plan);
          else connect(plan, plan.kind === "loop" ? plan.loop : undefined);
        }}
        onDeleted={() => change()}
        onMoved={() => change()}
      />
      {pendingLoop ? (
        <LoopDialog
          plan={pendingLoop}
          ports={nodes.find((node) => node.id === pendingLoop.source)?.data.ports ?? []}
          busy={false}
          onConfirm={(loop) => {
            setLoops((all) => [...all, loop]);
            connect(pendingLoop, loop.id);
            setPendingLoop(null);
          }}
          onCancel={() => setPendingLoop(null)}
        />
      ) : null}
      <aside className="panel">
        {refusals.length > 0 ? (
          <ul className="notice notice--error body-editor__refusals" role="alert" data-testid="body-refusals">
            {refusals.map((error, index) => (
              <li key={index}>
                {error.bodyPath?.length ? <code>{error.bodyPath.join(" › ")}</code> : null} {error.message} <span className="muted">[{error.code}]</span>
              </li>
            ))}
          </ul>
        ) : null}
        {selectedNode ? (
          <NodePanel
            node={selectedNode.data.node}
            providers={providers}
            knowledgeBases={knowledgeBases}
            channels={channels}
            scope={owner.config?.["items"] !== undefined || nodeTypes.get(owner.type)?.fields.some((field) => field.name === "items") ? "body" : "graph"}
            readOnly={readOnly}
            onSave={(patch) => updateNode(selectedNode.id, patch)}
            onDelete={() => void flow.deleteElements({ nodes: [{ id: selectedNode.id }] })}
            onOpenBody={() => setInnerOf(selectedNode.id)}
          />
        ) : (
          <div className="panel__section">
            <p className="hint">{t("pipeline.body.help")}</p>
          </div>
        )}
      </aside>
      <div className="results" />
      {inner ? (
        <BodyEditor
          owner={inner.data.node}
          takenIds={new Set([...takenIds, ...nodes.map((node) => node.id)])}
          providers={providers}
          knowledgeBases={knowledgeBases}
          channels={channels}
          readOnly={readOnly}
          onSave={(patch) => updateNode(inner.id, patch)}
          trail={[...trail, { label: t("pipeline.body.title", { node: owner.id }), onSelect: () => setInnerOf(null) }]}
          nested
          {...(decorate ? { decorate } : {})}
        />
      ) : null}
    </div>
  );
}

/** A node with a panel's patch applied locally (null clears an attribute). */
function applyPatch(node: WorkflowNode, patch: NodePatch): WorkflowNode {
  const next: WorkflowNode = { ...node };
  const set = <K extends "content" | "provider" | "model" | "prompt">(key: K, value: string | null | undefined) => {
    if (value === undefined) return;
    if (value === null) delete next[key];
    else next[key] = value;
  };
  set("content", patch.content);
  set("provider", patch.provider);
  set("model", patch.model);
  set("prompt", patch.prompt);
  if (patch.params !== undefined) {
    if (patch.params === null) delete next.params;
    else next.params = patch.params;
  }
  if (patch.config !== undefined) {
    if (patch.config === null) delete next.config;
    else next.config = patch.config as Record<string, JsonValue>;
  }
  return next;
}
