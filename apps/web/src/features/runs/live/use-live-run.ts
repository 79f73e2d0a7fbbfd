"use client";

import { print } from "graphql";
import { createClient } from "graphql-ws";
import { useEffect, useMemo, useRef, useState } from "react";
import { readApiKey } from "@/lib/api-key-store";
import { useApiEndpoint } from "@/lib/graphql-provider";
import { RunEventsSubscription } from "../runs.operations";
import { initialEventSequence, receiveEvent, receiveEvents, type EventSequenceState } from "./event-sequence.reducer";
import { startResumableStream, type StreamStatus } from "./resumable-stream";
import { initialRunLiveState, isTerminalRunStatus, projectRun, type LiveEvent, type RunLiveState, type RunStatusValue } from "./run-projection";

export interface LiveRun {
  state: RunLiveState;
  /** Every event so far, in seq order, each once. */
  events: readonly LiveEvent[];
  stream: { status: StreamStatus | "idle"; attempt: number; error: string | null };
  /** Changes whenever a node or the run settles: the page refetches the persisted details then. */
  settledKey: string;
}

const toLiveEvent = (raw: { seq: number; type: string; at: unknown; nodeId?: string | null; payload: unknown }): LiveEvent => ({
  seq: raw.seq,
  type: raw.type,
  at: String(raw.at),
  nodeId: raw.nodeId ?? null,
  payload: typeof raw.payload === "object" && raw.payload !== null ? (raw.payload as Record<string, unknown>) : {},
});

/**
 * The run as it unfolds: starts from the events the page loaded, then follows `runEvents` from the
 * last seq, resubscribing after every drop from the last seq applied (see resumable-stream.ts). Uses its
 * own WebSocket so its retries are its own; the socket closes when the run ends or the page leaves.
 */
export function useLiveRun(
  runId: string,
  loaded: { status: RunStatusValue; events: readonly { seq: number; type: string; at: unknown; nodeId?: string | null; payload: unknown }[] } | null,
): LiveRun {
  const endpoint = useApiEndpoint();
  const sequence = useRef<EventSequenceState<LiveEvent> | null>(null);
  const [version, setVersion] = useState(0);
  const [stream, setStream] = useState<LiveRun["stream"]>({ status: "idle", attempt: 0, error: null });
  const loadedStatus = loaded?.status ?? null;

  if (loaded && sequence.current === null) {
    sequence.current = receiveEvents(initialEventSequence<LiveEvent>(), loaded.events.map(toLiveEvent));
  }

  const state = useMemo(
    () => projectRun(sequence.current?.events ?? [], initialRunLiveState(loadedStatus ?? "QUEUED")),
    // `version` changes whenever the sequence ref does.
    [version, loadedStatus],
  );
  const finished = isTerminalRunStatus(state.status);
  const ready = sequence.current !== null;

  useEffect(() => {
    if (!ready || finished) return;
    const apiKey = readApiKey();
    const ws = createClient({
      url: endpoint.wsUrl,
      lazy: true,
      retryAttempts: 0,
      connectionParams: () => (apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      // Acknowledged means subscribed: the stream is live even while no node has anything to say.
      on: { connected: () => setStream((current) => (current.status === "connecting" || current.status === "reconnecting" ? { ...current, status: "live", attempt: 0 } : current)) },
    });
    const query = print(RunEventsSubscription);
    let done = false;
    const handle = startResumableStream<LiveEvent>({
      subscribe: (afterSeq, sink) =>
        ws.subscribe<{ runEvents: Parameters<typeof toLiveEvent>[0] }>(
          { query, variables: { runId, afterSeq } },
          {
            next: (result) => {
              if (result.errors?.length) {
                // A refused or unknown run will not get better by retrying.
                done = true;
                setStream({ status: "stopped", attempt: 0, error: result.errors.map((e) => e.message).join("; ") });
                handle?.stop();
                return;
              }
              if (result.data?.runEvents) sink.next(toLiveEvent(result.data.runEvents));
            },
            error: sink.error,
            complete: sink.complete,
          },
        ),
      afterSeq: () => sequence.current?.lastSeq ?? 0,
      onValue: (event) => {
        const current = sequence.current ?? initialEventSequence<LiveEvent>();
        const next = receiveEvent(current, event);
        if (next === current) return;
        sequence.current = next;
        setVersion((v) => v + 1);
        if (["RUN_COMPLETED", "RUN_FAILED", "RUN_CANCELLED"].includes(event.type)) {
          done = true;
          queueMicrotask(() => handle?.stop());
        }
      },
      onStatus: (status, detail) => {
        if (done && status === "stopped") return setStream((s) => (s.error ? s : { status: "done", attempt: 0, error: null }));
        setStream({ status, attempt: detail?.attempt ?? 0, error: null });
      },
      isFinished: () => done,
    });
    return () => {
      handle.stop();
      void ws.dispose();
    };
  }, [ready, finished, runId, endpoint.wsUrl]);

  const settledKey = useMemo(
    () =>
      `${state.status}:` +
      Object.entries(state.nodes)
        .filter(([, node]) => node.status === "COMPLETED" || node.status === "FAILED" || node.status === "SKIPPED")
        .map(([id]) => id)
        .sort()
        .join(","),
    [state],
  );

  return { state, events: sequence.current?.events ?? [], stream: finished && stream.status !== "idle" ? { ...stream, status: "done" } : stream, settledKey };
}
