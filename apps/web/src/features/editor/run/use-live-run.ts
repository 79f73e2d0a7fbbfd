"use client";

import { print } from "graphql";
import { useEffect, useMemo, useState } from "react";
import { useWsClient } from "../../../lib/graphql-provider";
import { initialEventSequence, receiveEvent } from "../../runs/live/event-sequence.reducer";
import type { EventSequenceState } from "../../runs/live/event-sequence.reducer";
import { startResumableStream } from "../../runs/live/resumable-stream";
import type { StreamStatus } from "../../runs/live/resumable-stream";
import { TERMINAL_RUN_EVENTS, toLiveEvent } from "./live-event";
import type { LiveEvent, RunLiveState } from "../../runs/live/run-projection";
import { projectRun } from "../../runs/live/run-projection";
import { EditorRunEventsSubscription } from "../api/editor.operations";

const RUN_EVENTS_QUERY = print(EditorRunEventsSubscription);

export interface LiveRun {
  events: readonly LiveEvent[];
  state: RunLiveState;
  stream: StreamStatus | null;
}

/**
 * Follows one run's events from the first: replayed, then live, resumed after the last applied seq
 * when the connection drops. Stops when the run's terminal event has arrived.
 */
export function useLiveRun(runId: string | null): LiveRun {
  const ws = useWsClient();
  const [sequence, setSequence] = useState<EventSequenceState<LiveEvent>>(() => initialEventSequence());
  const [stream, setStream] = useState<StreamStatus | null>(null);

  useEffect(() => {
    if (!runId) return;
    let current = initialEventSequence<LiveEvent>();
    let finished = false;
    setSequence(current);
    const handle = startResumableStream<LiveEvent>({
      afterSeq: () => current.lastSeq,
      isFinished: () => finished,
      onStatus: (status) => setStream(status),
      onValue: (event) => {
        current = receiveEvent(current, event);
        if (TERMINAL_RUN_EVENTS.has(event.type)) finished = current.events.some((applied) => TERMINAL_RUN_EVENTS.has(applied.type));
        setSequence(current);
        if (finished) handle.stop();
      },
      subscribe: (afterSeq, sink) =>
        ws.subscribe<{ runEvents: unknown }>(
          { query: RUN_EVENTS_QUERY, variables: { runId, afterSeq } },
          {
            next: (result) => {
              if (result.errors?.length) sink.error(result.errors);
              else if (result.data) sink.next(toLiveEvent(result.data.runEvents));
            },
            error: (error) => sink.error(error),
            complete: () => sink.complete(),
          },
        ),
    });
    return () => handle.stop();
  }, [runId, ws]);

  const state = useMemo(() => projectRun(sequence.events), [sequence.events]);
  return { events: sequence.events, state, stream: runId ? stream : null };
}
