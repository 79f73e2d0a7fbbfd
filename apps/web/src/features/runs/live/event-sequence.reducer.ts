/**
 * Keeps a run's events in sequence order across reconnects. The server numbers every event of a run
 * from 1 and, on subscribe with `afterSeq`, replays what was stored after it before going live. A
 * client that resubscribes with `afterSeq = lastSeq` therefore sees each event once — but only if it
 * ignores what it already has (a replay can overlap a live event delivered just before the drop) and
 * holds back anything that arrives early (so a late replayed event cannot be applied out of order).
 */

export interface SequencedEvent {
  seq: number;
}

export interface EventSequenceState<E extends SequencedEvent> {
  /** Every event from seq 1 to `lastSeq`, in order, each once. */
  events: E[];
  /** The highest seq applied contiguously; the `afterSeq` to resubscribe with. */
  lastSeq: number;
  /** Events that arrived ahead of a missing seq, keyed by seq, applied once the gap fills. */
  pending: ReadonlyMap<number, E>;
  /** How many duplicates were dropped (shown in debug views; a test measures it). */
  duplicates: number;
}

export function initialEventSequence<E extends SequencedEvent>(afterSeq = 0): EventSequenceState<E> {
  return { events: [], lastSeq: afterSeq, pending: new Map(), duplicates: 0 };
}

/** Adds one event; returns the same state object when nothing changed. */
export function receiveEvent<E extends SequencedEvent>(
  state: EventSequenceState<E>,
  event: E,
): EventSequenceState<E> {
  if (!Number.isInteger(event.seq) || event.seq < 1) return state;
  if (event.seq <= state.lastSeq || state.pending.has(event.seq)) {
    return { ...state, duplicates: state.duplicates + 1 };
  }
  if (event.seq > state.lastSeq + 1) {
    const pending = new Map(state.pending);
    pending.set(event.seq, event);
    return { ...state, pending };
  }
  const events = [...state.events, event];
  let lastSeq = event.seq;
  let pending = state.pending;
  if (pending.size > 0) {
    const rest = new Map(pending);
    for (let next = rest.get(lastSeq + 1); next; next = rest.get(lastSeq + 1)) {
      events.push(next);
      rest.delete(next.seq);
      lastSeq = next.seq;
    }
    pending = rest;
  }
  return { ...state, events, lastSeq, pending };
}

export function receiveEvents<E extends SequencedEvent>(
  state: EventSequenceState<E>,
  batch: readonly E[],
): EventSequenceState<E> {
  return batch.reduce(receiveEvent, state);
}

/** The `afterSeq` for the next subscription: everything up to it is already applied. */
export function resumeAfter(state: EventSequenceState<SequencedEvent>): number {
  return state.lastSeq;
}

/** True when events arrived beyond a missing seq; the stream should be resubscribed to fill it. */
export function hasGap(state: EventSequenceState<SequencedEvent>): boolean {
  return state.pending.size > 0;
}
