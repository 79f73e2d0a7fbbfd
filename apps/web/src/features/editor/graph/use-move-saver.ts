"use client";

import { useCallback, useEffect, useRef } from "react";
import type { NodeMove } from "../history/edit-history";

export const MOVE_SAVE_DELAY_MS = 500;

/**
 * Collects node moves and saves them in one call after the user pauses, so dragging a group or
 * nudging a node repeatedly costs one request. Pending moves are flushed on unmount.
 */
export function useMoveSaver(save: (moves: NodeMove[]) => void, delayMs = MOVE_SAVE_DELAY_MS): (moves: NodeMove[]) => void {
  const pending = useRef(new Map<string, NodeMove>());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const saveRef = useRef(save);

  useEffect(() => {
    saveRef.current = save;
  }, [save]);

  const flush = useCallback(() => {
    timer.current = null;
    const moves = [...pending.current.values()];
    pending.current.clear();
    if (moves.length > 0) saveRef.current(moves);
  }, []);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
      flush();
    },
    [flush],
  );

  return useCallback(
    (moves: NodeMove[]) => {
      for (const move of moves) pending.current.set(move.id, move);
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(flush, delayMs);
    },
    [flush, delayMs],
  );
}
