import { TERMINAL_EVENT_TYPES } from "@weft/engine";
import type { EventBus, RunEventMessage, Unsubscribe } from "../../pubsub.js";
import { AsyncQueue } from "../common/async-queue.js";
import type { Replay, ReplaySource } from "./run-event-replay.js";

/**
 * A run's events after `afterSeq`: the stored ones, then live ones, with no gap and no duplicate, ending
 * after the terminal event. Null when the run does not exist (nothing is left subscribed).
 *
 * Order matters: subscribe to the bus first (live events are held back), then read the database, then
 * release what was held back, skipping seq ≤ the last one sent. Events are stored before they are
 * published, so an event is either committed before the read (replayed) or published after the
 * subscription (held back) — often both, hence the seq filter. When a network bus lost messages (it
 * reconnected: onResync), the same catch-up runs again from the last seq sent. The reads may be shared
 * with other subscriptions of the run (run-event-replay.ts): a read starts only after every subscription
 * it serves asked for it.
 */
export async function replayThenLive(
  replays: ReplaySource,
  bus: EventBus,
  runId: string,
  afterSeq: number,
  /** Sees each event delivered live (not replayed): metrics of the event lag. */
  onLive?: (message: RunEventMessage) => void,
): Promise<AsyncIterableIterator<RunEventMessage> | null> {
  let unsubscribe: Unsubscribe | null = null;
  let lastSent = afterSeq;
  let held: RunEventMessage[] | null = [];
  let catchingUp: Promise<unknown> = Promise.resolve();
  const out = new AsyncQueue<RunEventMessage>(() => {
    unsubscribe?.();
    unsubscribe = null;
  });

  const send = (message: RunEventMessage) => {
    if (out.closed || message.seq <= lastSent) return;
    lastSent = message.seq;
    out.push(message);
    if (TERMINAL_EVENT_TYPES.has(message.type)) out.end();
  };

  /** Sends what is stored after the last seq sent while live events are held back, then releases them. */
  const release = (replay: Replay | null) => {
    for (const message of replay?.events ?? []) send(message);
    // The run had ended before the read, so its terminal event was stored; if afterSeq was at or past
    // it, there is nothing left to wait for. A run that is gone has nothing left either.
    if (!replay || (replay.finished && lastSent >= replay.lastSeq)) out.end();
    const pending = held ?? [];
    held = null;
    for (const message of pending) send(message);
  };

  /** Reads what is stored after the last seq sent, holding live events back meanwhile; false if the run is gone. */
  const catchUp = async (): Promise<boolean> => {
    held ??= [];
    const replay = await replays.read(runId, lastSent);
    release(replay);
    return replay !== null;
  };

  const resync = () => {
    if (out.closed) return;
    catchingUp = catchingUp.then(catchUp).catch((error: unknown) => out.fail(error));
  };

  const live = (message: RunEventMessage) => {
    if (message.seq > lastSent) onLive?.(message);
    send(message);
  };
  unsubscribe = await bus.subscribe("runEvents", runId, (message) => (held ? held.push(message) : live(message)), { onResync: resync });
  try {
    const first = catchUp();
    catchingUp = first;
    if (!(await first)) return null;
  } catch (error) {
    void out.return();
    throw error;
  }
  return out;
}
