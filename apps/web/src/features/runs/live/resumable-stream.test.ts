import { describe, expect, it } from "vitest";
import { initialEventSequence, receiveEvent, resumeAfter, type EventSequenceState } from "./event-sequence.reducer";
import { startResumableStream, type StreamSink, type StreamStatus } from "./resumable-stream";

interface Ev {
  seq: number;
  terminal: boolean;
}

/**
 * A scripted event source with the server's contract: subscribing with afterSeq replays the stored
 * events after it, then continues live. `drop()` ends the current subscription with an error, as a
 * closed socket does; a test drives delivery step by step.
 */
function scriptedServer(total: number) {
  const log: Ev[] = Array.from({ length: total }, (_, i) => ({ seq: i + 1, terminal: i + 1 === total }));
  const subscriptions: number[] = [];
  let current: { sink: StreamSink<Ev>; next: number } | null = null;
  return {
    subscriptions,
    subscribe(afterSeq: number, sink: StreamSink<Ev>) {
      subscriptions.push(afterSeq);
      const sub = { sink, next: afterSeq + 1 };
      current = sub;
      return () => {
        if (current === sub) current = null;
      };
    },
    /** Delivers up to n events on the open subscription; completes after the terminal one. */
    deliver(n: number) {
      for (let i = 0; i < n && current; i++) {
        const event = log[current.next - 1];
        if (!event) return;
        current.next += 1;
        current.sink.next(event);
        if (event.terminal) {
          const done = current;
          current = null;
          done.sink.complete();
        }
      }
    },
    drop() {
      const sub = current;
      current = null;
      sub?.sink.error(new Error("socket closed"));
    },
    get open() {
      return current !== null;
    },
  };
}

/** Runs scheduled callbacks when the test says so, instead of on a clock. */
function manualScheduler() {
  const queue: (() => void)[] = [];
  return {
    schedule: (callback: () => void) => {
      queue.push(callback);
      return () => {
        const i = queue.indexOf(callback);
        if (i >= 0) queue.splice(i, 1);
      };
    },
    runAll: () => queue.splice(0).forEach((callback) => callback()),
    get pending() {
      return queue.length;
    },
  };
}

function client(server: ReturnType<typeof scriptedServer>, scheduler: ReturnType<typeof manualScheduler>) {
  let state: EventSequenceState<Ev> = initialEventSequence<Ev>();
  const statuses: StreamStatus[] = [];
  const stream = startResumableStream<Ev>({
    subscribe: server.subscribe,
    afterSeq: () => resumeAfter(state),
    onValue: (event) => {
      state = receiveEvent(state, event);
    },
    onStatus: (status) => statuses.push(status),
    isFinished: () => state.events.some((event) => event.terminal),
    schedule: scheduler.schedule,
  });
  return { stream, statuses, state: () => state };
}

describe("resumable stream", () => {
  it("resubscribes after a drop from the last applied seq and ends with every event once", () => {
    const server = scriptedServer(10);
    const scheduler = manualScheduler();
    const c = client(server, scheduler);
    server.deliver(4);
    server.drop();
    expect(c.statuses.at(-1)).toBe("reconnecting");
    scheduler.runAll();
    server.deliver(3);
    server.drop();
    scheduler.runAll();
    server.deliver(100);
    expect(server.subscriptions).toEqual([0, 4, 7]);
    expect(c.state().events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(c.state().duplicates).toBe(0);
    expect(c.statuses.at(-1)).toBe("done");
    expect(scheduler.pending).toBe(0);
  });

  it("keeps retrying through drops that deliver nothing", () => {
    const server = scriptedServer(3);
    const scheduler = manualScheduler();
    const c = client(server, scheduler);
    for (let i = 0; i < 5; i++) {
      server.drop();
      scheduler.runAll();
    }
    server.deliver(3);
    expect(server.subscriptions).toEqual([0, 0, 0, 0, 0, 0]);
    expect(c.state().events).toHaveLength(3);
  });

  it("treats a completion before the run ended as a drop", () => {
    const server = scriptedServer(5);
    const scheduler = manualScheduler();
    let sink: StreamSink<Ev> | null = null;
    const subscribe = (afterSeq: number, s: StreamSink<Ev>) => {
      sink = s;
      return server.subscribe(afterSeq, s);
    };
    let state = initialEventSequence<Ev>();
    startResumableStream<Ev>({
      subscribe,
      afterSeq: () => resumeAfter(state),
      onValue: (event) => {
        state = receiveEvent(state, event);
      },
      isFinished: () => state.events.some((event) => event.terminal),
      schedule: scheduler.schedule,
    });
    server.deliver(2);
    (sink as StreamSink<Ev> | null)?.complete();
    scheduler.runAll();
    server.deliver(10);
    expect(server.subscriptions).toEqual([0, 2]);
    expect(state.events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it("stops without reconnecting once stopped", () => {
    const server = scriptedServer(5);
    const scheduler = manualScheduler();
    const c = client(server, scheduler);
    server.deliver(1);
    c.stream.stop();
    expect(server.open).toBe(false);
    server.drop();
    scheduler.runAll();
    expect(server.subscriptions).toEqual([0]);
    expect(c.statuses.at(-1)).toBe("stopped");
  });
});
