"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { commandOf, isTextTarget } from "../commands/keyboard-shortcuts";
import { commitState, startTimeline, stepBack, stepForward, type BodyTimeline } from "./body-history";

interface BodyHistoryOptions {
  /** The body as the canvas shows it now (JSON text; selection and measurements left out). */
  snapshot: () => string;
  /** Puts a state back on the canvas; `saved`: it is the body as last saved (or opened). */
  restore: (state: string, saved: boolean) => void;
  /** Whether Ctrl+Z and Ctrl+Shift+Z (Ctrl+Y) are this canvas' (not while a body opened over it or a dialog has them). */
  active: boolean;
  /** A read-only canvas (a run holds the workflow): nothing is undone or redone, by key or by button. */
  locked: boolean;
}

/**
 * The body canvas' undo and redo (body-history.ts). An edit calls `commit()`; the body is taken as it
 * is once React has drawn that edit, since the canvas applies some changes (a drag's end, a delete)
 * in the same turn as the edit's callback and some just before. `rebase()` starts afresh from the body
 * drawn next (after the first layout), `saved()` marks the state shown as the one stored.
 */
export function useBodyHistory({ snapshot, restore, active, locked }: BodyHistoryOptions) {
  const [timeline, setTimeline] = useState<BodyTimeline | null>(null);
  const current = useRef<BodyTimeline | null>(null);
  const savedState = useRef<string | null>(null);
  const pending = useRef<"base" | "commit" | null>("base");
  const [, redraw] = useState(0);
  const snapshotRef = useRef(snapshot);
  snapshotRef.current = snapshot;
  const restoreRef = useRef(restore);
  restoreRef.current = restore;
  const lockedRef = useRef(locked);
  lockedRef.current = locked;

  const set = (next: BodyTimeline) => {
    current.current = next;
    setTimeline(next);
  };

  // After every render: an edit asked for is now drawn.
  useEffect(() => {
    const wanted = pending.current;
    if (!wanted) return;
    pending.current = null;
    const state = snapshotRef.current();
    if (wanted === "base" || !current.current) {
      savedState.current = state;
      set(startTimeline(state));
    } else {
      set(commitState(current.current, state));
    }
  });

  const ask = useCallback((what: "base" | "commit") => {
    pending.current = pending.current === "base" ? "base" : what;
    redraw((n) => n + 1);
  }, []);
  const commit = useCallback(() => ask("commit"), [ask]);
  const rebase = useCallback(() => ask("base"), [ask]);
  const saved = useCallback(() => {
    const shown = current.current;
    savedState.current = shown ? (shown.states[shown.index] ?? null) : null;
  }, []);

  const move = useCallback((step: typeof stepBack) => {
    const taken = current.current && !lockedRef.current ? step(current.current) : null;
    if (!taken) return;
    set(taken.timeline);
    restoreRef.current(taken.state, taken.state === savedState.current);
  }, []);
  const undo = useCallback(() => move(stepBack), [move]);
  const redo = useCallback(() => move(stepForward), [move]);

  useEffect(() => {
    if (!active || locked) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (isTextTarget(event.target)) return;
      const command = commandOf(event);
      if (command !== "undo" && command !== "redo") return;
      event.preventDefault();
      if (command === "undo") undo();
      else redo();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [active, locked, undo, redo]);

  return {
    commit,
    rebase,
    saved,
    undo,
    redo,
    canUndo: !locked && timeline !== null && timeline.index > 0,
    canRedo: !locked && timeline !== null && timeline.index < timeline.states.length - 1,
  };
}
