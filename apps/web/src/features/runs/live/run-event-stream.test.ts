import type { Client, Sink } from "graphql-ws";
import { describe, expect, it } from "vitest";
import { initialEventSequence, type EventSequenceState } from "./event-sequence.reducer";
import type { RunEventFieldsFragment } from "@/gql/graphql";
import { followRunEvents, toLiveEvent, type RunStreamState } from "./run-event-stream";
import type { LiveEvent } from "./run-projection";

type Listener = () => void;

/**
 * A socket with graphql-ws's behaviour where it matters here: a subscription's payload is serialised
 * when it is sent, and sent again after a reconnect; `connected` and `closed` are announced to
 * listeners. The test plays the server: it reads what was sent and delivers events.
 */
function scriptedSocket() {
  const listeners = { connected: new Set<Listener>(), closed: new Set<Listener>() };
  const sent: { runId: string; afterSeq: number }[] = [];
  let open = false;
  let active: { payload: { variables?: Record<string, unknown> | null }; sink: Sink<unknown> } | null = null;
  const send = () => {
    if (open && active) sent.push(JSON.parse(JSON.stringify(active.payload.variables)) as { runId: string; afterSeq: number });
  };
  const ws = {
    on: (event: "connected" | "closed", listener: Listener) => {
      listeners[event].add(listener);
      return () => listeners[event].delete(listener);
    },
    subscribe: (payload: { variables?: Record<string, unknown> | null }, sink: Sink<unknown>) => {
      active = { payload, sink };
      send();
      return () => {
        active = null;
      };
    },
  } as unknown as Client;
  return {
    socket: { ws, isConnected: () => open },
    sent,
    connect() {
      open = true;
      listeners.connected.forEach((listener) => listener());
      send();
    },
    close() {
      open = false;
      listeners.closed.forEach((listener) => listener());
    },
    deliver(seq: number, type: "NODE_STARTED" | "RUN_STARTED" | "RUN_COMPLETED" = "NODE_STARTED") {
      const at = "2026-11-21T10:00:00.000Z";
      const event: RunEventFieldsFragment =
        type === "NODE_STARTED"
          ? { __typename: "NodeStartedEvent", seq, type, at, nodeId: "n", invocation: "" }
          : type === "RUN_STARTED"
            ? { __typename: "RunStartedEvent", seq, type, at, nodeId: null, nodeIds: ["n"] }
            : { __typename: "RunCompletedEvent", seq, type, at, nodeId: null, result: "done" };
      active?.sink.next({ data: { runEvents: event } });
    },
    refuse(message: string) {
      active?.sink.next({ errors: [{ message }] });
    },
    get subscribed() {
      return active !== null;
    },
  };
}

function follow(from: EventSequenceState<LiveEvent> = initialEventSequence<LiveEvent>()) {
  const server = scriptedSocket();
  const seen: { sequence: EventSequenceState<LiveEvent> | null; streams: RunStreamState[] } = { sequence: null, streams: [] };
  const handle = followRunEvents(server.socket, {
    runId: "run-1",
    from,
    onChange: (sequence) => (seen.sequence = sequence),
    onStream: (stream) => seen.streams.push(stream),
  });
  return { server, seen, handle };
}

const flush = () => new Promise<void>((resolve) => queueMicrotask(resolve));

describe("followRunEvents", () => {
  it("asks again, after a reconnect, for the events after the last one applied", () => {
    const { server, seen } = follow();
    server.connect();
    server.deliver(1, "RUN_STARTED");
    server.deliver(2);
    server.close();
    server.connect();
    server.deliver(3);
    expect(server.sent.map((variables) => variables.afterSeq)).toEqual([0, 2]);
    expect(seen.sequence?.events.map((event) => event.seq)).toEqual([1, 2, 3]);
    expect(seen.streams.map((stream) => stream.status)).toEqual(["connecting", "live", "reconnecting", "live"]);
  });

  it("starts after what the page loaded and keeps each event once", () => {
    const loaded: EventSequenceState<LiveEvent> = { ...initialEventSequence<LiveEvent>(), lastSeq: 4 };
    const { server, seen } = follow(loaded);
    server.connect();
    server.deliver(4);
    server.deliver(5);
    expect(server.sent[0]?.afterSeq).toBe(4);
    expect(seen.sequence?.lastSeq).toBe(5);
    expect(seen.sequence?.duplicates).toBe(1);
  });

  it("is live at once on a socket another page already opened", () => {
    const server = scriptedSocket();
    server.connect();
    const streams: RunStreamState[] = [];
    followRunEvents(server.socket, { runId: "run-1", from: initialEventSequence<LiveEvent>(), onChange: () => undefined, onStream: (s) => streams.push(s) });
    expect(streams.map((stream) => stream.status)).toEqual(["live"]);
  });

  it("stops after the run's last event and reports the stream done", async () => {
    const { server, seen } = follow();
    server.connect();
    server.deliver(1, "RUN_STARTED");
    server.deliver(2, "RUN_COMPLETED");
    await flush();
    expect(server.subscribed).toBe(false);
    expect(seen.streams.at(-1)?.status).toBe("done");
  });

  it("stops for good with the server's reason when the subscription is refused", async () => {
    const { server, seen } = follow();
    server.connect();
    server.refuse("Run not found");
    await flush();
    expect(server.subscribed).toBe(false);
    expect(seen.streams.at(-1)).toEqual({ status: "stopped", attempt: 0, error: "Run not found" });
  });
});

describe("toLiveEvent", () => {
  const at = "2026-11-21T10:00:00.000Z";

  it("reads each kind's own fields: a node's output, a warning's message, a run's result and error", () => {
    expect(toLiveEvent({ __typename: "NodeCompletedEvent", seq: 4, type: "NODE_COMPLETED", at, nodeId: "g1", invocation: "regen#2", description: "a summary", output: "the text", value: null })).toMatchObject({
      description: "a summary",
      output: "the text",
      text: null,
      pipeline: { invocation: "regen#2", value: null },
    });
    expect(toLiveEvent({ __typename: "WarningEvent", seq: 5, type: "WARNING", at, nodeId: "g1", code: "PROVIDER_RETRY", message: "429, retrying", invocation: "" })).toMatchObject({
      code: "PROVIDER_RETRY",
      text: "429, retrying",
      pipeline: { invocation: "" },
    });
    expect(toLiveEvent({ __typename: "RunCompletedEvent", seq: 9, type: "RUN_COMPLETED", at, nodeId: null, result: "final" })).toMatchObject({ output: "final", pipeline: null });
    expect(toLiveEvent({ __typename: "RunFailedEvent", seq: 9, type: "RUN_FAILED", at, nodeId: null, error: { code: "NODE_FAILED", message: "g1 failed" } })).toMatchObject({
      error: { code: "NODE_FAILED", message: "g1 failed" },
      output: null,
    });
  });

  it("reads the weft.workflow/v2 fields of branches, loops, maps and caches", () => {
    expect(toLiveEvent({ __typename: "BranchTakenEvent", seq: 3, type: "BRANCH_TAKEN", at, nodeId: "route", invocation: "", ports: ["simple"], skipped: ["hard"] }).pipeline).toMatchObject({ ports: ["simple"], skipped: ["hard"] });
    expect(toLiveEvent({ __typename: "LoopIterationEvent", seq: 6, type: "LOOP_ITERATION", at, nodeId: null, invocation: "regen#2", loopId: "regen", iteration: 2, max: 3, feedback: "too short" }).pipeline).toMatchObject({
      invocation: "regen#2",
      loopId: "regen",
      iteration: 2,
      max: 3,
      feedback: "too short",
    });
    expect(toLiveEvent({ __typename: "MapStartedEvent", seq: 7, type: "MAP_STARTED", at, nodeId: "per", invocation: "", items: 4 }).pipeline?.items).toBe(4);
    expect(toLiveEvent({ __typename: "CacheHitEvent", seq: 8, type: "CACHE_HIT", at, nodeId: "c", invocation: "", similarity: 0.93 }).pipeline?.similarity).toBe(0.93);
    expect(toLiveEvent({ __typename: "CacheMissEvent", seq: 8, type: "CACHE_MISS", at, nodeId: "c", invocation: "" }).pipeline?.invocation).toBe("");
  });
});
