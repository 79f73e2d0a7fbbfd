import { describe, expect, it } from "vitest";
import {
  hasGap,
  initialEventSequence,
  receiveEvent,
  receiveEvents,
  resumeAfter,
  type EventSequenceState,
} from "./event-sequence.reducer";

interface Ev {
  seq: number;
  label: string;
}
const ev = (seq: number): Ev => ({ seq, label: `e${seq}` });
const range = (from: number, to: number): Ev[] =>
  Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => ev(from + i));
const seqs = (state: EventSequenceState<Ev>) => state.events.map((e) => e.seq);

/** Small deterministic generator so the randomised scenarios are reproducible. */
function lcg(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

describe("event sequence", () => {
  it("applies events in order and remembers the last seq to resume after", () => {
    const state = receiveEvents(initialEventSequence<Ev>(), range(1, 4));
    expect(seqs(state)).toEqual([1, 2, 3, 4]);
    expect(resumeAfter(state)).toBe(4);
  });

  it("drops a replayed event the client already has", () => {
    const live = receiveEvents(initialEventSequence<Ev>(), range(1, 5));
    // The server replays after seq 3 because the client asked before seq 4 and 5 were applied.
    const replayed = receiveEvents(live, range(4, 7));
    expect(seqs(replayed)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(replayed.duplicates).toBe(2);
  });

  it("holds an early event until the missing one arrives, then applies both in order", () => {
    let state = receiveEvents(initialEventSequence<Ev>(), range(1, 2));
    state = receiveEvent(state, ev(4));
    expect(seqs(state)).toEqual([1, 2]);
    expect(hasGap(state)).toBe(true);
    expect(resumeAfter(state)).toBe(2);
    state = receiveEvent(state, ev(3));
    expect(seqs(state)).toEqual([1, 2, 3, 4]);
    expect(hasGap(state)).toBe(false);
  });

  it("starts after a given seq when the page already loaded the history up to it", () => {
    const state = receiveEvents(initialEventSequence<Ev>(10), [ev(9), ev(10), ev(11)]);
    expect(seqs(state)).toEqual([11]);
    expect(state.duplicates).toBe(2);
  });

  it("ignores events without a positive integer seq", () => {
    const start = initialEventSequence<Ev>();
    expect(receiveEvent(start, { seq: 0, label: "x" })).toBe(start);
    expect(receiveEvent(start, { seq: 1.5, label: "x" })).toBe(start);
  });

  it("never duplicates or skips an event across many drops and resubscriptions", () => {
    for (let seed = 1; seed <= 200; seed++) {
      const random = lcg(seed);
      const total = 20 + Math.floor(random() * 60);
      let state = initialEventSequence<Ev>();
      let delivered = 0; // highest seq the server pushed on the current connection
      let afterSeq = 0;
      while (state.lastSeq < total) {
        // Replay after afterSeq, then a live tail; the connection drops at a random point and live
        // events may arrive slightly reordered relative to the replay boundary.
        const stopAt = Math.min(total, afterSeq + 1 + Math.floor(random() * 15));
        const batch = range(afterSeq + 1, stopAt);
        if (random() < 0.3 && delivered > afterSeq) batch.unshift(...range(afterSeq + 1, delivered));
        if (random() < 0.3 && batch.length > 2) {
          const i = Math.floor(random() * (batch.length - 1));
          [batch[i], batch[i + 1]] = [batch[i + 1]!, batch[i]!];
        }
        state = receiveEvents(state, batch);
        delivered = stopAt;
        afterSeq = resumeAfter(state);
      }
      expect(seqs(state)).toEqual(range(1, total).map((e) => e.seq));
      expect(hasGap(state)).toBe(false);
    }
  });
});
