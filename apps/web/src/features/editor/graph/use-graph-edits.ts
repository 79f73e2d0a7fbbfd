"use client";

import type { Dispatch, SetStateAction } from "react";
import { useCallback, useRef } from "react";
import { checkAddNode, type JsonValue, type LoopDeclaration, type WorkflowNode } from "@weft/engine";
import { allNodeIds } from "../body/body-graph";
import { withFreeBodyIds } from "../clipboard/graph-clipboard";
import { EDIT_REGISTRY, type ValidatedGraph } from "../rules/edit-registry";
import { useMutation } from "urql";
import type { UserErrorFieldsFragment } from "@/gql/graphql";
import { useT } from "../../../i18n/i18n-provider";
import { useNodeTypes } from "../../node-types/node-types-context";
import { useToast } from "../../../ui/toast";
import { useReportOutcome } from "../../../ui/user-errors";
import {
  EditorAddEdgeMutation,
  EditorAddNodeMutation,
  EditorMoveNodesMutation,
  EditorRemoveEdgeMutation,
  EditorRemoveNodeMutation,
  EditorUpdateNodeMutation,
} from "../api/editor.operations";
import { additionEntry, edgeKey, findEdgeId, removalEntry, updateEntry, type CanvasOperation, type EdgeKey, type HistoryEntry, type NodeMove } from "../history/edit-history";
import { violationReason } from "../rules/violation-reason";
import type { ApiWorkflowNode } from "./api-node";
import { fromApiEdge, fromApiNode } from "./api-node";
import type { EditorFlowEdge, EditorFlowNode } from "./editor-graph";
import { toFlowEdge, toFlowNode } from "./editor-graph";
import { useTracked, type MutationTracker } from "./use-workflow-sync";
import { toPipelineSettings, type PipelineSettings } from "../pipeline/pipeline-settings";
import type { SettingsOutcome } from "../pipeline/use-pipeline-settings";

export interface NodePatch {
  content?: string | null;
  provider?: string | null;
  model?: string | null;
  prompt?: string | null;
  params?: Record<string, unknown> | null;
  /** The type's own fields, replaced as a whole (null clears them). */
  config?: Record<string, unknown> | null;
}

/** A connection to make: from a port, as a loop edge, or as the first edge of a loop declared with it. */
export interface ConnectPlan {
  source: string;
  target: string;
  sourcePort: string;
  loop?: string;
  declareLoop?: LoopDeclaration;
}

/** Whether the server stored the edge, and the workflow's settings as it answered (a new loop among them). */
export type ConnectResult = { added: true; settings: PipelineSettings | null } | { added: false };

/** What a node's save came to: the server's refusals, each with the field it is about, if any. */
export interface NodeSaveResult {
  ok: boolean;
  errors: readonly UserErrorFieldsFragment[];
}

interface GraphEditsOptions {
  workflowId: string;
  getGraph: () => ValidatedGraph;
  locked: boolean;
  setNodes: Dispatch<SetStateAction<EditorFlowNode[]>>;
  setEdges: Dispatch<SetStateAction<EditorFlowEdge[]>>;
  /** Redraws the canvas from the server's graph, after a refusal showed that this one is stale. */
  reload: () => void;
  /** Marks the nodes and edges a refusal names. */
  flag: (nodeIds: readonly string[], edgeIds: readonly string[]) => void;
  /** Records the versions these mutations produce, so workflowChanged does not redraw our own edits. */
  track: MutationTracker;
  /** Keeps each edit made here so it can be undone (the history's own replays are not recorded). */
  record: (entry: HistoryEntry) => void;
  /** The workflow's loops: a paste declares its loops, and undoing it drops them again. */
  pipeline: {
    current: () => PipelineSettings;
    save: (input: { loops: LoopDeclaration[] }) => Promise<SettingsOutcome>;
    adopt: (next: PipelineSettings) => void;
  };
}

/** A node as addNode takes it: its id, type, position and every setting it has. */
function addNodeInput(node: WorkflowNode) {
  return {
    id: node.id,
    type: node.type,
    position: node.position ?? { x: 0, y: 0 },
    ...(node.content !== undefined ? { content: node.content } : {}),
    ...(node.provider !== undefined ? { provider: node.provider } : {}),
    ...(node.model !== undefined ? { model: node.model } : {}),
    ...(node.prompt !== undefined ? { prompt: node.prompt } : {}),
    ...(node.params !== undefined ? { params: node.params } : {}),
    ...(node.config !== undefined ? { config: node.config } : {}),
  };
}

/**
 * The canvas' edits as API mutations. The engine has already approved each; the server decides. Every
 * edit made through here is recorded for undo; `apply` replays a recorded operation (undo, redo, paste).
 */
export function useGraphEdits({ workflowId, getGraph, locked, setNodes, setEdges, reload, flag, track, record, pipeline }: GraphEditsOptions) {
  const t = useT();
  const nodeTypes = useNodeTypes();
  const toast = useToast();
  const report = useReportOutcome();
  const addNode = useTracked(useMutation(EditorAddNodeMutation)[1], track);
  const updateNode = useTracked(useMutation(EditorUpdateNodeMutation)[1], track);
  const moveNodes = useTracked(useMutation(EditorMoveNodesMutation)[1], track);
  const removeNode = useTracked(useMutation(EditorRemoveNodeMutation)[1], track);
  const addEdge = useTracked(useMutation(EditorAddEdgeMutation)[1], track);
  const removeEdge = useTracked(useMutation(EditorRemoveEdgeMutation)[1], track);
  const pendingEdge = useRef(0);

  const refuse = useCallback(
    (title: string, refusal: { code: string; message: string; nodeIds?: readonly string[]; edgeIds?: readonly string[] }) => {
      const reason = violationReason(t, refusal, getGraph());
      toast.show({ tone: "error", title: `${title}: ${reason.title}`, message: reason.detail });
      flag(refusal.nodeIds ?? [], refusal.edgeIds ?? []);
    },
    [t, toast, flag, getGraph],
  );

  /** Sends one node to addNode and draws the server's answer; null when refused. */
  const createNode = useCallback(
    async (input: ReturnType<typeof addNodeInput> | { type: string; position: { x: number; y: number }; config?: Record<string, unknown> }): Promise<WorkflowNode | null> => {
      const result = await addNode({ workflowId, input });
      const payload = result.data?.addNode;
      const serverRefusal = payload?.errors[0];
      if (serverRefusal) {
        refuse(t("editor.refused.edit"), serverRefusal);
        reload();
        return null;
      }
      if (!report(t("editor.refused.edit"), { error: result.error }) || !payload?.node) return null;
      const created = fromApiNode(payload.node as ApiWorkflowNode);
      const flowNode = { ...toFlowNode(nodeTypes, created, payload.node.ports), selected: true };
      setNodes((all) => [...all.filter((n) => n.id !== created.id), flowNode]);
      return created;
    },
    [addNode, nodeTypes, refuse, reload, report, setNodes, t, workflowId],
  );

  /**
   * Sends one edge to addEdge (with a loop to declare along, for a loop's first edge) and draws the
   * server's answer; false when refused (the canvas is then redrawn).
   */
  const createEdge = useCallback(
    async (key: EdgeKey, declaring?: LoopDeclaration): Promise<boolean> => {
      const declaration = declaring ? { declareLoop: { id: declaring.id, max: declaring.max ?? null, exit: declaring.exit } } : key.loop ? { loop: key.loop } : {};
      const result = await addEdge({ workflowId, source: key.source, target: key.target, sourcePort: key.sourcePort ?? null, ...declaration });
      const payload = result.data?.addEdge;
      const edge = payload?.edge;
      if (edge && payload.errors.length === 0) {
        setEdges((all) => [...all, toFlowEdge(fromApiEdge(edge))]);
        if (declaring && payload.workflow) pipeline.adopt(toPipelineSettings(payload.workflow));
        return true;
      }
      const serverRefusal = payload?.errors[0];
      if (serverRefusal) refuse(t("editor.refused.connection"), serverRefusal);
      else report(t("editor.refused.connection"), { error: result.error });
      reload();
      return false;
    },
    [addEdge, pipeline, refuse, reload, report, setEdges, t, workflowId],
  );

  /** Drops loop declarations (undoing a paste that declared them); false when the server refused. */
  const dropLoops = useCallback(
    async (loopIds: readonly string[]): Promise<boolean> => {
      const doomed = new Set(loopIds);
      const outcome = await pipeline.save({ loops: pipeline.current().loops.filter((loop) => !doomed.has(loop.id)) });
      if (outcome.ok) return true;
      if (outcome.errors[0]) refuse(t("editor.refused.deletion"), outcome.errors[0]);
      else toast.show({ tone: "error", title: t("editor.refused.deletion"), message: outcome.transport ?? "" });
      return false;
    },
    [pipeline, refuse, t, toast],
  );

  /** A new node of a type, with the type's default config (nodeTypes), where it was asked for. */
  const add = useCallback(
    async (type: string, position: { x: number; y: number }) => {
      const graph = getGraph();
      const local = checkAddNode(graph, type, { registry: EDIT_REGISTRY, locked })[0];
      if (local) {
        refuse(t("editor.palette.refused"), local);
        return null;
      }
      setNodes((all) => all.map((n) => (n.selected ? { ...n, selected: false } : n)));
      const defaults = nodeTypes.get(type)?.defaultConfig;
      const config = defaults ? withFreeBodyIds(defaults as Record<string, JsonValue>, allNodeIds(graph)) : null;
      const created = await createNode({ type, position, ...(config ? { config } : {}) });
      if (created) record(additionEntry([created], [], t("canvas.history.add", { id: created.id })));
      return created;
    },
    [createNode, getGraph, locked, nodeTypes, record, refuse, setNodes, t],
  );

  const connect = useCallback(
    async (plan: ConnectPlan): Promise<ConnectResult> => {
      const { source, target, sourcePort, loop, declareLoop } = plan;
      // Shown at once; replaced by the server's edge, or removed if the server refuses.
      const tempId = `pending-${++pendingEdge.current}`;
      const pending = toFlowEdge({ id: tempId, source, target, sourcePort, ...(loop ? { loop } : {}) });
      setEdges((all) => [...all, { ...pending, className: `${pending.className ?? ""} wf-edge--pending`.trim() }]);
      const declaration = declareLoop ? { declareLoop: { id: declareLoop.id, max: declareLoop.max ?? null, exit: declareLoop.exit } } : {};
      const result = await addEdge({ workflowId, source, target, sourcePort, ...(loop ? { loop } : {}), ...declaration });
      const payload = result.data?.addEdge;
      const edge = payload?.edge;
      if (edge && payload.errors.length === 0) {
        const added = fromApiEdge(edge);
        setEdges((all) => all.map((e) => (e.id === tempId ? toFlowEdge(added) : e)));
        record(additionEntry([], [edgeKey(added)], t("canvas.history.connect", { source, target })));
        return { added: true, settings: payload.workflow ? toPipelineSettings(payload.workflow) : null };
      }
      setEdges((all) => all.filter((e) => e.id !== tempId));
      const serverRefusal = payload?.errors[0];
      if (!serverRefusal) {
        report(t("editor.refused.connection"), { error: result.error });
        return { added: false };
      }
      refuse(t(declareLoop ? "pipeline.loop.refused" : "editor.refused.connection"), serverRefusal);
      // A new loop's declaration is the server's to judge (its bound, its id): nothing else changed. Any
      // other refusal means the server knows a graph this canvas does not, since the engine allowed it
      // here: redraw from the server's graph.
      if (!declareLoop) reload();
      return { added: false };
    },
    [addEdge, record, refuse, reload, report, setEdges, t, workflowId],
  );

  /** Removes nodes and edges on the server; the canvas has already let them go. False when any was refused. */
  const sendRemovals = useCallback(
    async (nodeIds: readonly string[], edgeIds: readonly string[]): Promise<boolean> => {
      const removedWithNodes = new Set<string>();
      let refused = false;
      for (const edgeId of edgeIds) {
        if (edgeId.startsWith("pending-")) continue;
        const result = await removeEdge({ workflowId, edgeId });
        const refusal = result.data?.removeEdge.errors[0];
        if (refusal) refuse(t("editor.refused.deletion"), refusal);
        if (refusal || !report(t("editor.refused.deletion"), { error: result.error })) refused = true;
        else removedWithNodes.add(edgeId);
      }
      for (const nodeId of nodeIds) {
        const result = await removeNode({ workflowId, nodeId });
        const refusal = result.data?.removeNode.errors[0];
        if (refusal) refuse(t("editor.refused.deletion"), refusal);
        if (refusal || !report(t("editor.refused.deletion"), { error: result.error })) refused = true;
      }
      if (refused) reload();
      return !refused;
    },
    [refuse, reload, removeEdge, removeNode, report, t, workflowId],
  );

  /** Deleted on the canvas (Delete, the panel's button, the context menu): `before` is the graph they left. */
  const removeElements = useCallback(
    async (nodeIds: string[], edgeIds: string[], before: ValidatedGraph) => {
      const doomed = new Set(nodeIds);
      // Edges that go with their nodes are removed by removeNode; only the others are sent on their own.
      const loose = edgeIds.filter((id) => {
        const edge = before.edges.find((candidate) => candidate.id === id);
        return edge && !doomed.has(edge.source) && !doomed.has(edge.target);
      });
      const done = await sendRemovals(nodeIds, loose);
      if (done) record(removalEntry(before, nodeIds, edgeIds, t("canvas.history.delete", { count: nodeIds.length + loose.length })));
    },
    [record, sendRemovals, t],
  );

  /** Saves a node's attributes or config; records the edit for undo unless `recorded` is false. */
  const saveNode = useCallback(
    async (nodeId: string, patch: NodePatch, recorded: boolean): Promise<NodeSaveResult> => {
      const before = getGraph().nodes.find((node) => node.id === nodeId);
      const result = await updateNode({ workflowId, nodeId, input: patch });
      const payload = result.data?.updateNode;
      const refusal = payload?.errors[0];
      if (refusal) {
        refuse(t("editor.refused.edit"), refusal);
        // A refused field (bad input, a CEL expression that does not compile) stays in the form to fix;
        // anything else means the server's graph differs from this canvas.
        if (refusal.code !== "VALIDATION_FAILED" && !refusal.field) reload();
        return { ok: false, errors: payload.errors };
      }
      if (!report(t("editor.refused.edit"), { error: result.error }) || !payload?.node) return { ok: false, errors: [] };
      const saved = fromApiNode(payload.node as ApiWorkflowNode);
      const ports = payload.node.ports;
      setNodes((all) => all.map((n) => (n.id === nodeId ? { ...n, data: { ...n.data, node: { ...saved, position: n.position }, ports } } : n)));
      if (recorded && before) record(updateEntry(before, patch, t("canvas.history.update", { id: nodeId })));
      toast.show({ tone: "success", message: t("editor.saved") });
      return { ok: true, errors: [] };
    },
    [getGraph, record, refuse, reload, report, setNodes, t, toast, updateNode, workflowId],
  );
  const update = useCallback((nodeId: string, patch: NodePatch) => saveNode(nodeId, patch, true), [saveNode]);

  const saveMoves = useCallback(
    async (moves: NodeMove[]) => {
      const result = await moveNodes({ workflowId, moves });
      report(t("editor.refused.edit"), { error: result.error, errors: result.data?.moveNodes.errors });
    },
    [moveNodes, report, t, workflowId],
  );

  /** Carries out a recorded operation (undo, redo) or a paste; true when the server took all of it. */
  const apply = useCallback(
    async (operation: CanvasOperation): Promise<boolean> => {
      switch (operation.kind) {
        case "add": {
          if (operation.nodes.length > 0) setNodes((all) => all.map((n) => (n.selected ? { ...n, selected: false } : n)));
          for (const node of operation.nodes) if (!(await createNode(addNodeInput(node)))) return false;
          // Each new loop is declared with its first loop edge (both are stored or neither).
          const undeclared = new Map((operation.loops ?? []).map((loop) => [loop.id, loop]));
          for (const key of operation.edges) {
            const declaring = key.loop ? undeclared.get(key.loop) : undefined;
            if (key.loop) undeclared.delete(key.loop);
            if (!(await createEdge(key, declaring))) return false;
          }
          return true;
        }
        case "remove": {
          const graph = getGraph();
          const doomed = new Set(operation.nodeIds);
          const edgeIds = operation.edges
            .filter((key) => !doomed.has(key.source) && !doomed.has(key.target))
            .map((key) => findEdgeId(graph.edges, key))
            .filter((id): id is string => id !== null);
          setNodes((all) => all.filter((n) => !doomed.has(n.id)));
          setEdges((all) => all.filter((e) => !doomed.has(e.source) && !doomed.has(e.target) && !edgeIds.includes(e.id)));
          if (!(await sendRemovals(operation.nodeIds, edgeIds))) return false;
          return operation.loops?.length ? dropLoops(operation.loops) : true;
        }
        case "move": {
          const to = new Map(operation.moves.map((move) => [move.id, move]));
          setNodes((all) => all.map((n) => (to.has(n.id) ? { ...n, position: { x: to.get(n.id)!.x, y: to.get(n.id)!.y } } : n)));
          await saveMoves([...operation.moves]);
          return true;
        }
        case "update":
          return (await saveNode(operation.nodeId, operation.state, false)).ok;
      }
    },
    [createEdge, createNode, dropLoops, getGraph, saveMoves, saveNode, sendRemovals, setEdges, setNodes],
  );

  return { add, connect, removeElements, update, saveMoves, apply };
}
