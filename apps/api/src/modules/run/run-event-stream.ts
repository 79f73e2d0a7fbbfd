import { TERMINAL_EVENT_TYPES, type RunEventType } from "@weft/engine";
import type { PrismaClient, RunEvent as RunEventRow } from "../../generated/prisma/client.js";
import type { EventBus, RunEventMessage, Unsubscribe } from "../../pubsub.js";
import { AsyncQueue } from "../common/async-queue.js";
import { isActiveRunStatus } from "../common/run-status.js";

const REPLAY_PAGE = 500;

export function toEventMessage(row: RunEventRow): RunEventMessage {
  return {
    runId: row.runId,
    seq: row.seq,
    type: row.type as RunEventType,
    at: row.at.toISOString(),
    nodeId: row.nodeKey,
    payload: (row.payload ?? {}) as Record<string, unknown>,
  };
}

/**
 * A run's events after `afterSeq`: the stored ones, then live ones, with no gap and no duplicate, ending
 * after the terminal event.
 *
 * Order matters: subscribe to the bus first (live events are held back), then read the database, then
 * release what was held back, skipping seq ≤ the last one sent. Events are stored before they are
 * published, so an event is either committed before the read (replayed) or published after the
 * subscription (held back) — often both, hence the seq filter. When a network bus lost messages (it
 * reconnected: onResync), the same catch-up runs again from the last seq sent.
 */
export function replayThenLive(
  db: PrismaClient,
  bus: EventBus,
  runId: string,
  afterSeq: number,
  /** Sees each event delivered live (not replayed): metrics of the event lag. */
  onLive?: (message: RunEventMessage) => void,
): AsyncIterableIterator<RunEventMessage> {
  let unsubscribe: Unsubscribe | null = null;
  let lastSent = afterSeq;
  let held: RunEventMessage[] | null = [];
  let catchingUp: Promise<void> = Promise.resolve();
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

  /** Reads what is stored after the last seq sent while live events are held back, then releases them. */
  const catchUp = async () => {
    held ??= [];
    const run = await db.run.findUnique({ where: { id: runId }, select: { status: true, lastSeq: true } });
    for (;;) {
      const rows = await db.runEvent.findMany({
        where: { runId, seq: { gt: lastSent } },
        orderBy: { seq: "asc" },
        take: REPLAY_PAGE,
      });
      for (const row of rows) send(toEventMessage(row));
      if (rows.length < REPLAY_PAGE || out.closed) break;
    }
    // The run had ended before the read, so its terminal event was stored; if afterSeq was at or past
    // it, there is nothing left to wait for.
    const finished = !run || !isActiveRunStatus(run.status);
    if (finished && lastSent >= (run?.lastSeq ?? 0)) out.end();
    const pending = held;
    held = null;
    for (const message of pending) send(message);
  };

  const resync = () => {
    if (out.closed) return;
    held ??= [];
    catchingUp = catchingUp.then(catchUp).catch((error: unknown) => out.fail(error));
  };

  const start = async () => {
    const live = (message: RunEventMessage) => {
      if (message.seq > lastSent) onLive?.(message);
      send(message);
    };
    const subscription = await bus.subscribe("runEvents", runId, (message) => (held ? held.push(message) : live(message)), { onResync: resync });
    if (out.closed) return subscription();
    unsubscribe = subscription;
    catchingUp = catchUp();
    await catchingUp;
  };
  start().catch((error: unknown) => out.fail(error));
  return out;
}
