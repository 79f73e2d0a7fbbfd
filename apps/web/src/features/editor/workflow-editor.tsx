"use client";

import "./editor.css";
import "./pipeline/pipeline.css";
import "./commands/commands.css";

import { useEdgesState, useNodesInitialized, useNodesState, useReactFlow, type NodeChange } from "@xyflow/react";
import Link from "next/link";
import { useCallback, useEffect, useMemo, useRef, useState, type CSSProperties } from "react";
import { useT } from "../../i18n/i18n-provider";
import type { NodeTypeCatalogue } from "../node-types/node-type-catalogue";
import { useNodeTypes } from "../node-types/node-types-context";
import { EditorCanvas } from "./canvas/editor-canvas";
import type { ApiWorkflowEdge, ApiWorkflowNode } from "./graph/api-node";
import { fromApiEdge, fromApiNode } from "./graph/api-node";
import type { EditorFlowEdge, EditorFlowNode } from "./graph/editor-graph";
import { flowToGraph, toFlowEdge, toFlowNode } from "./graph/editor-graph";
import { findFreePosition, NODE_BOX } from "./graph/free-position";
import { useGraphEdits } from "./graph/use-graph-edits";
import { useMoveSaver } from "./graph/use-move-saver";
import { useWorkflowSync } from "./graph/use-workflow-sync";
import { NodePalette } from "./palette/node-palette";
import { NodePanel } from "./panels/node-panel";
import type { KnowledgeBaseOption, ProviderOption } from "./panels/panel-options.type";
import { WorkflowSettingsPanel } from "./panels/workflow-settings-panel";
import type { WorkflowSettingsDraft } from "./panels/workflow-settings.type";
import { ResultsPane } from "./run/results-pane";
import { RunDialog } from "./run/run-dialog";
import { ResultsResizer, useResultsHeight } from "./run/results-resizer";
import { RunBar } from "./run/run-bar";
import { useEditorRun } from "./run/use-editor-run";
import { useSettingsSaver } from "./panels/use-settings-saver";
import { PublishControl } from "../versions/publish-control";
import { LoopDialog } from "./pipeline/loop-dialog";
import { BodyEditor } from "./body/body-editor";
import { allNodeIds } from "./body/body-graph";
import { PipelineSettingsPanel } from "./pipeline/pipeline-settings-panel";
import type { PipelineSettings } from "./pipeline/pipeline-settings";
import { useLoopConnect } from "./pipeline/use-loop-connect";
import { usePipelineSettings } from "./pipeline/use-pipeline-settings";
import { edgeRunState, loopsByHeader } from "../runs/live/pipeline-events";
import { useLiveDecoration } from "./run/use-live-decoration";
import { needsLayout } from "../graph-view/auto-layout";
import { useEditHistory } from "./history/use-edit-history";
import { useSettingsEdits } from "./history/use-settings-edits";
import { moveEntry, type GraphOperation, type NodeMove } from "./history/edit-history";
import { useTidyUp } from "./graph/use-tidy-up";
import { ensureVisible, FIT_VIEW, readableFit } from "./graph/readable-fit";
import { useEditorCommands } from "./commands/use-editor-commands";
import { CanvasToolbar } from "./canvas/canvas-toolbar";
import { EditorOverlays, type MenuRequest } from "./commands/editor-overlays";

export interface EditorWorkflow {
  id: string;
  name: string;
  version: number;
  activeRunId: string | null;
  /** The latest published version's number; null while none is. */
  publishedVersion: number | null;
  settings: WorkflowSettingsDraft;
  /** Loops, state channels and limits (weft.workflow/v2). */
  pipeline: PipelineSettings;
  nodes: readonly (ApiWorkflowNode & { ports: readonly string[] })[];
  edges: readonly ApiWorkflowEdge[];
}

interface WorkflowEditorProps {
  workflow: EditorWorkflow;
  providers: readonly ProviderOption[];
  knowledgeBases: readonly KnowledgeBaseOption[];
  /** A run to show in the results pane when the workflow has none active (one that ended during a reload). */
  followRunId: string | null;
  /** Remounts the editor on the server's graph; with a run id, keeps following that run; keeps the selection given. */
  reload: (runId?: string, selection?: readonly string[]) => void;
  /** Nodes selected when the editor was last redrawn. */
  initialSelection?: readonly string[];
}

const initialNodes = (workflow: EditorWorkflow, selection: readonly string[], nodeTypes: NodeTypeCatalogue) =>
  workflow.nodes.map((node) => {
    const flowNode = toFlowNode(nodeTypes, fromApiNode(node), node.ports);
    return selection.includes(node.id) ? { ...flowNode, selected: true } : flowNode;
  });
const initialEdges = (workflow: EditorWorkflow) => workflow.edges.map((edge) => toFlowEdge(fromApiEdge(edge)));

export function WorkflowEditor({ workflow, providers, knowledgeBases, followRunId, reload, initialSelection = [] }: WorkflowEditorProps) {
  const t = useT();
  const nodeTypes = useNodeTypes();
  const flow = useReactFlow<EditorFlowNode, EditorFlowEdge>();
  const [nodes, setNodes, onNodesChange] = useNodesState<EditorFlowNode>(initialNodes(workflow, initialSelection, nodeTypes));
  const [edges, setEdges, onEdgesChange] = useEdgesState<EditorFlowEdge>(initialEdges(workflow));
  // A map's or subgraph's body open on its own canvas, over this one.
  const [bodyOf, setBodyOf] = useState<string | null>(null);
  const [flagged, setFlagged] = useState<{ nodes: ReadonlySet<string>; edges: ReadonlySet<string> }>({ nodes: new Set(), edges: new Set() });
  const { getNodes, getEdges } = flow;
  // The rules read the loops, state channels and limits as saved (set below, once their hook exists).
  const pipelineRef = useRef<() => PipelineSettings>(() => workflow.pipeline);
  const getGraph = useCallback(() => flowToGraph(getNodes(), getEdges(), pipelineRef.current()), [getNodes, getEdges]);
  const flag = useCallback(
    (nodeIds: readonly string[], edgeIds: readonly string[]) => {
      setFlagged({ nodes: new Set(nodeIds), edges: new Set(edgeIds) });
      // Bring what the refusal names into view; it may sit outside the visible part of the canvas.
      if (nodeIds.length > 0) setTimeout(() => void flow.fitView({ ...FIT_VIEW, nodes: nodeIds.map((id) => ({ id })), duration: 200 }), 0);
    },
    [flow],
  );

  // Changes made elsewhere redraw the editor; unsaved text (settings or node form) is never overwritten without asking.
  const unsavedSettings = useRef(false);
  const unsavedNode = useRef(false);
  const reportNodeDirty = useCallback((dirty: boolean) => {
    unsavedNode.current = dirty;
  }, []);
  const redraw = useRef<() => void>(() => undefined);
  const sync = useWorkflowSync({
    workflowId: workflow.id,
    baseVersion: workflow.version,
    hasUnsavedEdits: () => unsavedSettings.current || unsavedNode.current,
    reload: () => redraw.current(),
  });
  const settings = useSettingsSaver(workflow.id, workflow.settings, sync.track);
  const pipeline = usePipelineSettings(workflow.id, workflow.pipeline, sync.track);
  pipelineRef.current = pipeline.current;
  unsavedSettings.current = JSON.stringify(settings.draft) !== JSON.stringify(settings.saved);
  const run = useEditorRun({
    workflowId: workflow.id,
    initialActiveRunId: workflow.activeRunId,
    initialRunId: workflow.activeRunId ?? followRunId,
    settings: settings.draft,
    flag,
    onForeignRun: reload,
  });
  const locked = run.locked;
  const reloadGraph = useCallback(() => reload(), [reload]);
  // Undo replays operations through the edits, which record into the history: tied by a ref.
  const applyRef = useRef<(operation: GraphOperation) => Promise<boolean>>(async () => false);
  const history = useEditHistory(useCallback((operation: GraphOperation) => applyRef.current(operation), []));
  const edits = useGraphEdits({ workflowId: workflow.id, getGraph, locked, setNodes, setEdges, reload: reloadGraph, flag, track: sync.track, record: history.record, pipeline });
  const settingsEdits = useSettingsEdits({ settings, pipeline, record: history.record });
  applyRef.current = (operation) => (operation.kind === "settings" ? settingsEdits.apply(operation.state) : edits.apply(operation));
  const loops = useLoopConnect({ connect: edits.connect, adopt: pipeline.adopt });
  redraw.current = () => reload(run.runId ?? undefined, getNodes().filter((node) => node.selected).map((node) => node.id));
  const queueMoves = useMoveSaver(edits.saveMoves);
  const layOut = useTidyUp();
  const tidyUp = useCallback(async () => {
    const { before, after } = await layOut();
    queueMoves(after);
    const entry = moveEntry(before, after, t("canvas.tidyUp"));
    if (entry) history.record(entry);
  }, [history, layOut, queueMoves, t]);
  const onMoved = useCallback(
    (moves: NodeMove[], before: NodeMove[]) => {
      queueMoves(moves);
      const entry = moveEntry(before, moves, t("canvas.history.move", { count: moves.length }));
      if (entry) history.record(entry);
    },
    [history, queueMoves, t],
  );
  // A graph imported without positions (the seed templates before they had some) is laid out once the
  // cards are measured, and that layout is saved, so the next visitor sees the same.
  const measured = useNodesInitialized();
  const layoutSaved = useRef(false);
  useEffect(() => {
    if (layoutSaved.current || !measured || !needsLayout(workflow.nodes)) return;
    layoutSaved.current = true;
    void layOut().then(({ after }) => edits.saveMoves(after));
  }, [edits, layOut, measured, workflow.nodes]);
  // Selecting another node while the selected one's form holds unsaved edits asks first; kept, the
  // selection stays (the form with it).
  const guardedNodesChange = useCallback(
    (changes: NodeChange<EditorFlowNode>[]) => {
      const dirty = getNodes().find((node) => node.selected);
      const leaves = unsavedNode.current && dirty && changes.some((change) => change.type === "select" && change.id === dirty.id && !change.selected);
      if (leaves && !window.confirm(t("editor.panel.discardUnsaved", { id: dirty.id }))) {
        onNodesChange(changes.filter((change) => change.type !== "select"));
        return;
      }
      if (leaves) unsavedNode.current = false;
      onNodesChange(changes);
    },
    [getNodes, onNodesChange, t],
  );
  const [menu, setMenu] = useState<MenuRequest | null>(null);
  const [resultsHeight, setResultsHeight] = useResultsHeight();
  const [runDialog, setRunDialog] = useState(false);
  const commands = useEditorCommands({ getGraph, locked, active: !bodyOf && !loops.pending && !runDialog, apply: edits.apply, record: history.record, undo: history.undo, redo: history.redo, tidyUp: () => void tidyUp() });

  const headed = useMemo(() => loopsByHeader(edges.map((edge) => ({ target: edge.target, loop: edge.data?.loop }))), [edges]);
  const decorate = useLiveDecoration(run.live.state, headed, flagged.nodes);
  const shownNodes = useMemo(() => decorate(nodes), [decorate, nodes]);
  const shownEdges = useMemo(() => {
    const bounds = new Map(pipeline.settings.loops.map((loop) => [loop.id, loop.max]));
    return edges.map((edge) => {
      const loop = edge.data?.loop;
      // A loop edge runs back across the graph, under the cards like every edge, so it never takes a click
      // meant for a node; its label says which loop and how many rounds.
      const labelled = loop ? { ...edge, label: <span translate="no">{t("pipeline.loop.edgeLabel", { loop, max: bounds.get(loop) ?? "?" })}</span> } : edge;
      const ran = edgeRunState(run.live.state, { source: edge.source, sourcePort: edge.data?.sourcePort ?? null });
      const classes = [edge.className, ran ? `wf-edge--${ran}` : "", flagged.edges.has(edge.id) ? "wf-edge--flagged" : ""].filter(Boolean).join(" ");
      return { ...labelled, ...(classes ? { className: classes } : {}), ...(flagged.edges.has(edge.id) ? { animated: true } : {}) };
    });
  }, [edges, flagged.edges, pipeline.settings.loops, run.live.state, t]);

  const selected = nodes.filter((node) => node.selected);
  const bodyOwner = bodyOf ? nodes.find((node) => node.id === bodyOf) : undefined;
  const selectedNode = selected.length === 1 ? selected[0] : undefined;

  const addFromPalette = useCallback(
    (type: string) => {
      // A new node goes right of the selected node (building left to right), else near the middle of
      // the view; either way where no node sits.
      const current = getNodes();
      const anchor = current.filter((node) => node.selected);
      const bounds = document.querySelector(".canvas")?.getBoundingClientRect();
      const center = bounds ? flow.screenToFlowPosition({ x: bounds.left + bounds.width / 2, y: bounds.top + bounds.height / 2 }) : { x: 0, y: 0 };
      const wanted = anchor.length === 1 && anchor[0] ? { x: anchor[0].position.x + 240, y: anchor[0].position.y } : { x: center.x - 90, y: center.y - 40 };
      const spot = findFreePosition(current.map((node) => node.position), wanted);
      // Brought into view if it landed near an edge.
      void edits.add(type, spot).then((created) => created && ensureVisible(flow, { ...spot, ...NODE_BOX }));
    },
    [edits, flow, getNodes, nodeTypes],
  );
  const dropFromPalette = useCallback((type: string, position: { x: number; y: number }) => void edits.add(type, position), [edits]);

  const focusNode = useCallback(
    (nodeId: string) => {
      setNodes((all) => all.map((node) => ({ ...node, selected: node.id === nodeId })));
      const node = getNodes().find((candidate) => candidate.id === nodeId);
      if (node) void flow.setCenter(node.position.x + 90, node.position.y + 40, { zoom: Math.max(flow.getZoom(), 0.9), duration: 200 });
    },
    [flow, getNodes, setNodes],
  );

  return (
    <div className={locked ? "editor editor--locked" : "editor"} style={{ "--results-height": `${resultsHeight}px` } as CSSProperties}>
      <div className="editor__toolbar">
        <Link href="/workflows" className="editor__back">
          ← {t("editor.back")}
        </Link>
        <h1 className="editor__title" title={settings.saved.name} translate="no">
          {settings.saved.name}
        </h1>
        {locked ? (
          <span className="editor__locked" role="status" data-testid="editor-locked">
            {t("editor.locked")}
          </span>
        ) : null}
        {sync.notice === "changed" ? (
          <span className="editor__remote" role="status" data-testid="changed-elsewhere">
            {t("editor.sync.changedElsewhere")}{" "}
            <button type="button" className="btn btn--sm" onClick={() => redraw.current()}>
              {t("editor.sync.reload")}
            </button>
          </span>
        ) : null}
        {sync.notice === "deleted" ? (
          <span className="editor__remote" role="status" data-testid="deleted-elsewhere">
            {t("editor.sync.deleted")}
          </span>
        ) : null}
        <Link href={`/workflows/${workflow.id}/threads`} className="editor__link" data-testid="threads-link">
          {t("threads.link")}
        </Link>
        <PublishControl workflowId={workflow.id} published={workflow.publishedVersion} revision={sync.revision} onStart={() => run.showRefusals("publish", [])} onRefused={(errors) => run.showRefusals("publish", errors)} />
        <RunBar choice={run.choice} knowledgeBases={knowledgeBases} running={locked} starting={run.starting} checking={run.checking} onChange={run.setChoice} onRun={() => setRunDialog(true)} onCancel={run.cancel} onCheck={run.check} />
      </div>
      <NodePalette disabled={locked} onAdd={addFromPalette} />
      {loops.pending ? (
        <LoopDialog
          plan={loops.pending}
          ports={nodes.find((node) => node.id === loops.pending?.source)?.data.ports ?? []}
          busy={loops.busy}
          onConfirm={(loop) => void loops.confirm(loop)}
          onCancel={loops.cancel}
        />
      ) : null}
      <EditorCanvas
        keysActive={!bodyOf}
        nodes={shownNodes}
        edges={shownEdges}
        onNodesChange={guardedNodesChange}
        onEdgesChange={onEdgesChange}
        locked={locked}
        getGraph={getGraph}
        onConnectPlan={(plan) => {
          setFlagged({ nodes: new Set(), edges: new Set() });
          loops.request(plan);
        }}
        onDeleted={(nodeIds, edgeIds, before) => void edits.removeElements(nodeIds, edgeIds, before)}
        onMoved={onMoved}
        onMenu={(nodeId, at, flowAt) => {
          // A right-clicked node outside the selection becomes the selection: the menu acts on it.
          if (nodeId && !getNodes().find((node) => node.id === nodeId)?.selected) setNodes((all) => all.map((node) => ({ ...node, selected: node.id === nodeId })));
          setMenu({ nodeId, at, flowAt });
        }}
        onDropType={locked ? undefined : dropFromPalette}
      >
        <CanvasToolbar
          undoLabel={history.undoLabel}
          redoLabel={history.redoLabel}
          busy={history.busy}
          locked={locked}
          onUndo={history.undo}
          onRedo={history.redo}
          onTidyUp={() => void tidyUp()}
          onFind={() => commands.setFinding(true)}
          onHelp={() => commands.setHelping(true)}
        />
      </EditorCanvas>
      {runDialog ? (
        <RunDialog
          workflowId={workflow.id}
          nodes={getGraph().nodes}
          providers={providers}
          publishedVersion={workflow.publishedVersion}
          busy={run.starting}
          onClose={() => setRunDialog(false)}
          onRun={(request) =>
            void run.start(request).then((started) => {
              setRunDialog(false);
              if (started) void readableFit(flow);
            })
          }
        />
      ) : null}
      <EditorOverlays
        menu={menu}
        onCloseMenu={() => setMenu(null)}
        commands={commands}
        locked={locked}
        getGraph={getGraph}
        onFocusNode={focusNode}
        onDelete={() => void flow.deleteElements({ nodes: getNodes().filter((node) => node.selected).map((node) => ({ id: node.id })) })}
        onOpenBody={(nodeId) => setBodyOf(nodeId)}
        onAdd={dropFromPalette}
        onTidyUp={() => void tidyUp()}
      />
      <aside className="panel" aria-label={selectedNode ? t("editor.panel.node", { id: selectedNode.id }) : t("editor.panel.workflow")}>
        {selectedNode ? (
          <NodePanel
            node={selectedNode.data.node}
            providers={providers}
            knowledgeBases={knowledgeBases}
            channels={Object.keys(pipeline.settings.state)}
            onOpenBody={() => setBodyOf(selectedNode.id)}
            readOnly={locked}
            onSave={(patch) => edits.update(selectedNode.id, patch)}
            onDelete={() => void flow.deleteElements({ nodes: [{ id: selectedNode.id }] })}
            onDirtyChange={reportNodeDirty}
          />
        ) : (
          <div className="panel__section">
            <header className="panel__header">
              <h2>{t("editor.panel.workflow")}</h2>
            </header>
            <WorkflowSettingsPanel saved={settings.saved} draft={settings.draft} knowledgeBases={knowledgeBases} readOnly={false} onChange={settings.setDraft} onSave={settingsEdits.saveWorkflow} />
            <PipelineSettingsPanel key={JSON.stringify(pipeline.settings)} settings={pipeline.settings} readOnly={locked} save={settingsEdits.savePipeline} />
          </div>
        )}
      </aside>
      {bodyOwner ? (
        <BodyEditor
          owner={bodyOwner.data.node}
          takenIds={allNodeIds(getGraph())}
          providers={providers}
          knowledgeBases={knowledgeBases}
          channels={Object.keys(pipeline.settings.state)}
          readOnly={locked}
          onSave={(patch) => edits.update(bodyOwner.id, patch)}
          trail={[{ label: t("pipeline.body.workflow"), onSelect: () => setBodyOf(null) }]}
          decorate={decorate}
        />
      ) : null}
      <ResultsResizer height={resultsHeight} onResize={setResultsHeight} />
      <ResultsPane runId={run.runId} status={run.runId ? run.live.state.status : null} events={run.live.events} refusals={run.refusals} refusalKind={run.refusalKind} reconnecting={run.live.stream.status === "reconnecting"} onFocusNode={focusNode} getGraph={getGraph} />
    </div>
  );
}
