"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useSubscription } from "urql";
import { EditorWorkflowChangedSubscription } from "../api/editor.operations";
import { payloadVersion, remoteChangeAction, type RemoteChange, type VersionBook } from "./remote-change";

export type RemoteNotice = "changed" | "deleted" | null;

/** Wraps a mutation executor so the versions it produces are known to be this editor's own. */
export type MutationTracker = <A extends unknown[], R extends { data?: unknown }>(execute: (...args: A) => Promise<R>) => (...args: A) => Promise<R>;

interface WorkflowSyncOptions {
  workflowId: string;
  baseVersion: number;
  /** Read when a change arrives: whether the settings form holds unsaved text. */
  hasUnsavedEdits: () => boolean;
  /** Redraws the editor from the server (keeping the selection). */
  reload: () => void;
}

/**
 * Follows `workflowChanged`: a version this editor did not produce redraws it from the server, unless
 * the settings form holds unsaved text, in which case a notice offers the reload instead.
 */
export function useWorkflowSync({ workflowId, baseVersion, hasUnsavedEdits, reload }: WorkflowSyncOptions) {
  const book = useRef<VersionBook & { own: Set<number> }>({ base: baseVersion, own: new Set(), inFlight: 0 });
  const waiting = useRef<RemoteChange[]>([]);
  const [notice, setNotice] = useState<RemoteNotice>(null);
  // Counts this editor's answered mutations: what reads the draft (is it the published version?) reads again.
  const [revision, setRevision] = useState(0);
  const [{ data }] = useSubscription({ query: EditorWorkflowChangedSubscription, variables: { workflowId } });
  const unsaved = useRef(hasUnsavedEdits);
  unsaved.current = hasUnsavedEdits;
  const reloadRef = useRef(reload);
  reloadRef.current = reload;

  // Every change not yet settled is judged again: one that waited on our mutation may still be foreign.
  const decide = useCallback((incoming: RemoteChange | null) => {
    const changes = incoming ? [...waiting.current, incoming] : waiting.current;
    const actions = changes.map((change) => remoteChangeAction(book.current, change, unsaved.current()));
    waiting.current = changes.filter((_, index) => actions[index] === "wait");
    if (actions.includes("deleted")) setNotice("deleted");
    else if (actions.includes("notice")) setNotice("changed");
    else if (actions.includes("reload")) {
      waiting.current = [];
      reloadRef.current();
    }
  }, []);

  useEffect(() => {
    const change = data?.workflowChanged;
    if (change && change.workflowId === workflowId) decide({ version: change.version, deleted: change.deleted });
  }, [data, workflowId, decide]);

  const track = useCallback<MutationTracker>(
    (execute) =>
      async (...args) => {
        book.current.inFlight += 1;
        try {
          const result = await execute(...args);
          const version = payloadVersion(result.data);
          if (version !== null) book.current.own.add(version);
          return result;
        } finally {
          setRevision((value) => value + 1);
          book.current.inFlight -= 1;
          if (book.current.inFlight === 0 && waiting.current.length > 0) decide(null);
        }
      },
    [decide],
  );

  return { notice, track, revision, dismiss: () => setNotice(null) };
}

/** A mutation executor wrapped by the tracker, stable while both are. */
export function useTracked<A extends unknown[], R extends { data?: unknown }>(execute: (...args: A) => Promise<R>, track: MutationTracker): (...args: A) => Promise<R> {
  return useMemo(() => track(execute), [track, execute]);
}
