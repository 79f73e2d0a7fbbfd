"use client";

import { useCallback, useSyncExternalStore } from "react";
import type { GateRefusal } from "../evaluations/gate-refusal";

/** The publish dialog of one workflow: open or not, the note typed, a publish under way, the gate's refusal. */
export interface PublishDialogState {
  open: boolean;
  note: string;
  publishing: boolean;
  refusal: GateRefusal | null;
}

const CLOSED: PublishDialogState = { open: false, note: "", publishing: false, refusal: null };

/**
 * Kept outside the component, per workflow: a publish behind a gate runs the draft's experiment first,
 * and its draft runs make the editor redraw (remount) while the publish is under way. The dialog, its
 * note and the outcome must survive that, so they live here and not in the component's state.
 */
const states = new Map<string, PublishDialogState>();
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function updatePublishDialog(workflowId: string, patch: Partial<PublishDialogState>): void {
  states.set(workflowId, { ...(states.get(workflowId) ?? CLOSED), ...patch });
  for (const listener of listeners) listener();
}

export function usePublishDialog(workflowId: string): [PublishDialogState, (patch: Partial<PublishDialogState>) => void] {
  const state = useSyncExternalStore(
    subscribe,
    () => states.get(workflowId) ?? CLOSED,
    () => CLOSED,
  );
  const update = useCallback((patch: Partial<PublishDialogState>) => updatePublishDialog(workflowId, patch), [workflowId]);
  return [state, update];
}
