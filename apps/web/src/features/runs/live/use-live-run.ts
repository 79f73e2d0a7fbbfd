"use client";

import { useEffect, useMemo, useState } from "react";
import { useSharedSocket } from "@/lib/graphql-provider";
import { initialEventSequence, type EventSequenceState } from "./event-sequence.reducer";
import { followRunEvents, type RunStreamState } from "./run-event-stream";
import { initialRunLiveState, projectRun, type LiveEvent, type RunLiveState } from "./run-projection";

export interface LiveRun {
  state: RunLiveState;
  /** Every event so far, in seq order, each once. */
  events: readonly LiveEvent[];
  stream: RunStreamState;
  /** Changes whenever a node or the run settles: a page refetches the persisted details then. */
  settledKey: string;
}

const IDLE: RunStreamState = { status: "idle", attempt: 0, error: null };
const NO_EVENTS: readonly LiveEvent[] = [];

/** The sequence of one run, tagged with it so a new run id starts afresh. */
interface Followed {
  runId: string;
  sequence: EventSequenceState<LiveEvent>;
}

/**
 * One run as it unfolds, for the editor's results pane and the run pages alike: follows `runEvents` on
 * the app's one WebSocket from the first event (the server replays what is stored, then goes live) until
 * the run's last event. See run-event-stream.ts for how reconnects resume.
 */
export function useLiveRun(runId: string | null): LiveRun {
  const socket = useSharedSocket();
  const [followed, setFollowed] = useState<Followed | null>(null);
  const [stream, setStream] = useState<RunStreamState>(IDLE);

  useEffect(() => {
    if (!runId) return;
    setFollowed({ runId, sequence: initialEventSequence<LiveEvent>() });
    setStream({ status: "connecting", attempt: 0, error: null });
    const handle = followRunEvents(socket, {
      runId,
      from: initialEventSequence<LiveEvent>(),
      onChange: (sequence) => setFollowed({ runId, sequence }),
      onStream: setStream,
    });
    return () => handle.stop();
  }, [socket, runId]);

  // Until the effect has run for a new run id, the previous run's events are not this run's.
  const current = runId !== null && followed?.runId === runId ? followed : null;
  const events = current?.sequence.events ?? NO_EVENTS;
  const state = useMemo(() => projectRun(events, initialRunLiveState("QUEUED")), [events]);
  const settledKey = useMemo(
    () =>
      `${state.status}:` +
      Object.entries(state.nodes)
        .filter(([, node]) => node.status === "COMPLETED" || node.status === "FAILED" || node.status === "SKIPPED")
        .map(([id]) => id)
        .sort()
        .join(",") +
      `:${Object.values(state.calls).filter((call) => call.status === "COMPLETED" || call.status === "FAILED").length}`,
    [state],
  );

  return { state, events, stream: current ? stream : IDLE, settledKey };
}
