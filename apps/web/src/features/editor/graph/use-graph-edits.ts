"use client";

import type { Dispatch, SetStateAction } from "react";
import { useCallback, useRef } from "react";
import { checkAddNode, type LoopDeclaration } from "@weft/engine";
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
import type { NodeMove } from "../canvas/editor-canvas";
import { violationReason } from "../rules/violation-reason";
import type { ApiWorkflowNode } from "./api-node";
import { fromApiEdge, fromApiNode } from "./api-node";
import type { EditorFlowEdge, EditorFlowNode } from "./editor-graph";
import { toFlowEdge, toFlowNode } from "./editor-graph";
import { useTracked, type MutationTracker } from "./use-workflow-sync";
import { toPipelineSettings, type PipelineSettings } from "../pipeline/pipeline-settings";

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
}

/** The canvas' edits as API mutations. The engine has already approved each; the server decides. */
export function useGraphEdits({ workflowId, getGraph, locked, setNodes, setEdges, reload, flag, track }: GraphEditsOptions) {
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
    [t, toast, flag],
  );

  const add = useCallback(
    async (type: string, position: { x: number; y: number }) => {
      const local = checkAddNode(getGraph(), type, { registry: EDIT_REGISTRY, locked })[0];
      if (local) return refuse(t("editor.palette.refused"), local);
      const result = await addNode({ workflowId, input: { type, position } });
      const payload = result.data?.addNode;
      const serverRefusal = payload?.errors[0];
      if (serverRefusal) {
        refuse(t("editor.refused.edit"), serverRefusal);
        return reload();
      }
      if (!report(t("editor.refused.edit"), { error: result.error }) || !payload?.node) return;
      const node = { ...toFlowNode(nodeTypes, fromApiNode(payload.node as ApiWorkflowNode), payload.node.ports), selected: true };
      setNodes((all) => [...all.map((n) => (n.selected ? { ...n, selected: false } : n)), node]);
    },
    [addNode, getGraph, locked, refuse, reload, report, setNodes, t, workflowId],
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
        setEdges((all) => all.map((e) => (e.id === tempId ? toFlowEdge(fromApiEdge(edge)) : e)));
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
    [addEdge, refuse, reload, report, setEdges, t, workflowId],
  );

  const removeElements = useCallback(
    async (nodeIds: string[], edgeIds: string[]) => {
      const removedWithNodes = new Set<string>();
      let refused = false;
      for (const nodeId of nodeIds) {
        const result = await removeNode({ workflowId, nodeId });
        const payload = result.data?.removeNode;
        for (const id of payload?.removedEdgeIds ?? []) removedWithNodes.add(id);
        const refusal = payload?.errors[0];
        if (refusal) refuse(t("editor.refused.deletion"), refusal);
        if (refusal || !report(t("editor.refused.deletion"), { error: result.error })) refused = true;
      }
      for (const edgeId of edgeIds) {
        if (removedWithNodes.has(edgeId) || edgeId.startsWith("pending-")) continue;
        const result = await removeEdge({ workflowId, edgeId });
        const refusal = result.data?.removeEdge.errors[0];
        if (refusal) refuse(t("editor.refused.deletion"), refusal);
        if (refusal || !report(t("editor.refused.deletion"), { error: result.error })) refused = true;
      }
      if (refused) reload();
    },
    [refuse, reload, removeEdge, removeNode, report, t, workflowId],
  );

  const update = useCallback(
    async (nodeId: string, patch: NodePatch): Promise<NodeSaveResult> => {
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
      toast.show({ tone: "success", message: t("editor.saved") });
      return { ok: true, errors: [] };
    },
    [refuse, reload, report, setNodes, t, toast, updateNode, workflowId],
  );

  const saveMoves = useCallback(
    async (moves: NodeMove[]) => {
      const result = await moveNodes({ workflowId, moves });
      report(t("editor.refused.edit"), { error: result.error, errors: result.data?.moveNodes.errors });
    },
    [moveNodes, report, t, workflowId],
  );

  return { add, connect, removeElements, update, saveMoves };
}
