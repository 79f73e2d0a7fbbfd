"use client";

import { Panel } from "@xyflow/react";
import { useT } from "../../../i18n/i18n-provider";
import { Button } from "../../../ui/button";

interface CanvasToolbarProps {
  undoLabel: string | null;
  redoLabel: string | null;
  busy: boolean;
  locked: boolean;
  onUndo: () => void;
  onRedo: () => void;
  onTidyUp: () => void;
  onFind: () => void;
  onHelp: () => void;
}

/** Over the canvas' top-left corner: undo, redo, tidy up, find and the shortcuts overlay. */
export function CanvasToolbar({ undoLabel, redoLabel, busy, locked, onUndo, onRedo, onTidyUp, onFind, onHelp }: CanvasToolbarProps) {
  const t = useT();
  return (
    <Panel position="top-left" className="canvas-toolbar" aria-label={t("canvas.toolbar")} role="toolbar">
      <Button size="sm" disabled={!undoLabel || busy || locked} title={undoLabel ? t("canvas.history.undoWhat", { what: undoLabel }) : t("canvas.history.nothing")} onClick={onUndo} data-testid="undo">
        ↶ {t("canvas.history.undo")}
      </Button>
      <Button size="sm" disabled={!redoLabel || busy || locked} title={redoLabel ? t("canvas.history.redoWhat", { what: redoLabel }) : t("canvas.history.nothing")} onClick={onRedo} data-testid="redo">
        ↷ {t("canvas.history.redo")}
      </Button>
      <Button size="sm" onClick={onTidyUp} title={t("canvas.tidyUpHelp")} data-testid="tidy-up">
        {t("canvas.tidyUp")}
      </Button>
      <Button size="sm" onClick={onFind} title="Ctrl+K">
        {t("canvas.find.button")}
      </Button>
      <Button size="sm" onClick={onHelp} title="?" aria-label={t("canvas.shortcuts.title")}>
        ⌨
      </Button>
    </Panel>
  );
}
