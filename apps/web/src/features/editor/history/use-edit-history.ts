"use client";

import { useCallback, useRef, useState } from "react";
import { emptyHistory, recordEdit, takeRedo, takeUndo, type EditHistory, type GraphOperation, type HistoryEntry } from "./edit-history";

/**
 * The editor's undo and redo. Steps run one after another (a second Ctrl+Z waits for the first's
 * mutations); a step the server refuses ends the history, since the canvas is then redrawn from the
 * server's graph and the recorded operations may no longer fit it.
 */
export function useEditHistory(apply: (operation: GraphOperation) => Promise<boolean>) {
  const [history, setHistory] = useState<EditHistory>(emptyHistory);
  const current = useRef(history);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const [busy, setBusy] = useState(false);
  const applyRef = useRef(apply);
  applyRef.current = apply;

  const set = (next: EditHistory) => {
    current.current = next;
    setHistory(next);
  };

  const record = useCallback((entry: HistoryEntry) => set(recordEdit(current.current, entry)), []);

  const step = useCallback((direction: "undo" | "redo") => {
    queue.current = queue.current.then(async () => {
      const taken = direction === "undo" ? takeUndo(current.current) : takeRedo(current.current);
      if (!taken) return;
      set(taken.next);
      setBusy(true);
      const done = await applyRef.current(direction === "undo" ? taken.entry.undo : taken.entry.redo);
      setBusy(false);
      if (!done) set(emptyHistory);
    });
    return queue.current;
  }, []);

  const undo = useCallback(() => step("undo"), [step]);
  const redo = useCallback(() => step("redo"), [step]);

  return {
    record,
    undo,
    redo,
    busy,
    /** What the next undo and redo would do, for the buttons' titles; null when there is nothing. */
    undoLabel: history.past.at(-1)?.label ?? null,
    redoLabel: history.future[0]?.label ?? null,
  };
}
