"use client";

import { useReactFlow } from "@xyflow/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { useT } from "../../../i18n/i18n-provider";
import { useToast } from "../../../ui/toast";
import { allNodeIds } from "../body/body-graph";
import { copySelection, pastedGraph, pasteOffset, readClipboard, CLIPBOARD_FORMAT, type ClipboardGraph } from "../clipboard/graph-clipboard";
import type { EditorFlowEdge, EditorFlowNode } from "../graph/editor-graph";
import { additionEntry, type CanvasOperation, type HistoryEntry } from "../history/edit-history";
import { admitPaste } from "../clipboard/paste-admission";
import type { ValidatedGraph } from "../rules/edit-registry";
import { violationReason } from "../rules/violation-reason";
import { commandOf, isTextTarget } from "./keyboard-shortcuts";

/** Where the last copy is kept too, for the context menu's Paste (reading the system clipboard needs a permission). */
const CLIPBOARD_KEY = "weft.clipboard";

interface EditorCommandsOptions {
  getGraph: () => ValidatedGraph;
  locked: boolean;
  /** False while something covers the canvas (a body's canvas, a dialog): keys are not the canvas'. */
  active: boolean;
  apply: (operation: CanvasOperation) => Promise<boolean>;
  record: (entry: HistoryEntry) => void;
  undo: () => void;
  redo: () => void;
  tidyUp: () => void;
}

/**
 * The editor's commands beyond the canvas' own gestures: copy, paste and duplicate of a selection (its
 * inner edges and settings, ids renamed), select all, undo and redo, the finder and the shortcuts
 * overlay, from the keyboard (keyboard-shortcuts.ts) and from the menus and buttons.
 */
export function useEditorCommands({ getGraph, locked, active, apply, record, undo, redo, tidyUp }: EditorCommandsOptions) {
  const t = useT();
  const toast = useToast();
  const flow = useReactFlow<EditorFlowNode, EditorFlowEdge>();
  const [finding, setFinding] = useState(false);
  const [helping, setHelping] = useState(false);

  const selectedIds = useCallback(() => flow.getNodes().filter((node) => node.selected).map((node) => node.id), [flow]);

  const copy = useCallback((): string | null => {
    const clip = copySelection(getGraph(), selectedIds());
    if (!clip) return null;
    const text = JSON.stringify(clip);
    try {
      localStorage.setItem(CLIPBOARD_KEY, text);
    } catch {
      // Storage full or refused: the system clipboard still has it.
    }
    return text;
  }, [getGraph, selectedIds]);

  const paste = useCallback(
    async (clip: ClipboardGraph | null, at: { x: number; y: number } | null = null) => {
      if (!clip) return;
      const graph = getGraph();
      const here = new Set(graph.nodes.map((node) => node.id));
      // Copied from this canvas: beside the originals; from elsewhere: where asked, else mid-view.
      const fromHere = clip.nodes.every((node) => here.has(node.id));
      const canvas = document.querySelector(".canvas")?.getBoundingClientRect();
      const middle = canvas ? flow.screenToFlowPosition({ x: canvas.left + canvas.width / 3, y: canvas.top + canvas.height / 3 }) : { x: 0, y: 0 };
      const takenLoops = new Set((graph.loops ?? []).map((loop) => loop.id));
      const pasted = pastedGraph(clip, allNodeIds(graph), pasteOffset(clip, at ?? (fromHere ? null : middle)), takenLoops);
      // What the rules refuse here (a second output node, a loop edge cut off from its loop) is left out and said so.
      const { nodes, edges, loops, refusals } = admitPaste(graph, pasted, locked);
      const refused = refusals.map((refusal) => violationReason(t, refusal.violation, refusal.graph).detail);
      if (refused.length > 0) toast.show({ tone: "error", title: t("canvas.clipboard.refused"), message: [...new Set(refused)].join("\n") });
      if (nodes.length === 0) return;
      if (await apply({ kind: "add", nodes, edges, loops })) record(additionEntry(nodes, edges, t("canvas.history.paste", { count: nodes.length }), loops));
    },
    [apply, flow, getGraph, locked, record, t, toast],
  );

  const pasteStored = useCallback((at: { x: number; y: number } | null = null) => {
    let text: string | null = null;
    try {
      text = localStorage.getItem(CLIPBOARD_KEY);
    } catch {
      text = null;
    }
    return paste(readClipboard(text), at);
  }, [paste]);

  const duplicate = useCallback(() => paste(copySelection(getGraph(), selectedIds())), [getGraph, paste, selectedIds]);

  const selectAll = useCallback(() => {
    flow.setNodes((all) => all.map((node) => (node.selected ? node : { ...node, selected: true })));
    flow.setEdges((all) => all.map((edge) => (edge.selected ? { ...edge, selected: false } : edge)));
  }, [flow]);

  const commands = useRef({ undo, redo, selectAll, duplicate, tidyUp, find: () => setFinding(true), help: () => setHelping(true) });
  commands.current = { undo, redo, selectAll, duplicate, tidyUp, find: () => setFinding(true), help: () => setHelping(true) };

  useEffect(() => {
    if (!active) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (isTextTarget(event.target)) return;
      // Kept for the menu's Paste too, should the browser not fire a copy event without selected text.
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "c") copy();
      const command = commandOf(event);
      if (!command) return;
      event.preventDefault();
      void commands.current[command]();
    };
    const onCopy = (event: ClipboardEvent) => {
      if (isTextTarget(event.target) || window.getSelection()?.toString()) return;
      const text = copy();
      if (!text || !event.clipboardData) return;
      event.clipboardData.setData("text/plain", text);
      event.preventDefault();
      toast.show({ tone: "success", message: t("canvas.clipboard.copied", { count: (JSON.parse(text) as ClipboardGraph).nodes.length }) });
    };
    const onPaste = (event: ClipboardEvent) => {
      if (isTextTarget(event.target)) return;
      const text = event.clipboardData?.getData("text/plain") ?? "";
      if (text.includes(CLIPBOARD_FORMAT)) {
        event.preventDefault();
        void paste(readClipboard(text));
      } else {
        void pasteStored();
      }
    };
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("copy", onCopy);
    document.addEventListener("paste", onPaste);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("copy", onCopy);
      document.removeEventListener("paste", onPaste);
    };
  }, [active, copy, paste, pasteStored, t, toast]);

  return { copy, paste, pasteStored, duplicate, selectAll, finding, setFinding, helping, setHelping };
}
