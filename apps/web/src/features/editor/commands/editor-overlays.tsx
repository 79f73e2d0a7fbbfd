"use client";

import { useNodeTypes } from "../../node-types/node-types-context";
import { useNodeTypeLabel } from "../../node-types/use-node-type-label";
import { useT } from "../../../i18n/i18n-provider";
import type { ValidatedGraph } from "../rules/edit-registry";
import { CanvasMenu, type MenuItem } from "./canvas-menu";
import { NodeFinder } from "./node-finder";
import { ShortcutsHelp } from "./shortcuts-help";
import type { useEditorCommands } from "./use-editor-commands";

/** A right-click: on a node (its id) or on the empty canvas (null), at a point of the page and of the graph. */
export interface MenuRequest {
  nodeId: string | null;
  at: { x: number; y: number };
  flowAt: { x: number; y: number };
}

interface EditorOverlaysProps {
  menu: MenuRequest | null;
  onCloseMenu: () => void;
  commands: ReturnType<typeof useEditorCommands>;
  locked: boolean;
  getGraph: () => ValidatedGraph;
  onFocusNode: (nodeId: string) => void;
  /** Deletes the selected nodes (a right-clicked node is selected first). */
  onDelete: () => void;
  onOpenBody: (nodeId: string) => void;
  onAdd: (type: string, position: { x: number; y: number }) => void;
  onTidyUp: () => void;
}

/** What opens over the editor: the right-click menus, the finder (Ctrl+K) and the shortcuts overlay (?). */
export function EditorOverlays({ menu, onCloseMenu, commands, locked, getGraph, onFocusNode, onDelete, onOpenBody, onAdd, onTidyUp }: EditorOverlaysProps) {
  const t = useT();
  const nodeTypes = useNodeTypes();
  const typeLabel = useNodeTypeLabel();
  const menuItems = (request: MenuRequest): MenuItem[] => {
    const graph = getGraph();
    if (request.nodeId) {
      const node = graph.nodes.find((candidate) => candidate.id === request.nodeId);
      return [
        { label: t("canvas.menu.copy"), onSelect: () => void commands.copy(), testId: "menu-copy" },
        { label: t("canvas.menu.duplicate"), onSelect: () => void commands.duplicate(), disabled: locked, testId: "menu-duplicate" },
        ...(node && nodeTypes.get(node.type)?.composite ? [{ label: t("canvas.menu.openBody"), onSelect: () => onOpenBody(request.nodeId!), testId: "menu-open-body" }] : []),
        { label: t("canvas.menu.delete"), onSelect: onDelete, disabled: locked, separated: true, testId: "menu-delete" },
      ];
    }
    return [
      { label: t("canvas.menu.paste"), onSelect: () => void commands.pasteStored(request.flowAt), disabled: locked, testId: "menu-paste" },
      { label: t("canvas.menu.selectAll"), onSelect: commands.selectAll },
      { label: t("canvas.tidyUp"), onSelect: onTidyUp },
      { label: t("canvas.find.button"), onSelect: () => commands.setFinding(true) },
      ...nodeTypes.types.map((info, index) => ({
        label: t("canvas.menu.addHere", { type: typeLabel(info.type) }),
        onSelect: () => onAdd(info.type, request.flowAt),
        disabled: locked,
        separated: index === 0,
        testId: `menu-add-${info.type}`,
      })),
    ];
  };
  return (
    <>
      {menu ? <CanvasMenu at={menu.at} label={menu.nodeId ? t("canvas.menu.node", { id: menu.nodeId }) : t("canvas.menu.canvas")} items={menuItems(menu)} onClose={onCloseMenu} /> : null}
      {commands.finding ? (
        <NodeFinder
          nodes={getGraph().nodes}
          onClose={() => commands.setFinding(false)}
          onPick={(nodeId) => {
            commands.setFinding(false);
            onFocusNode(nodeId);
          }}
        />
      ) : null}
      {commands.helping ? <ShortcutsHelp onClose={() => commands.setHelping(false)} /> : null}
    </>
  );
}
