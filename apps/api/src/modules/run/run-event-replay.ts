import type { RunEventType } from "@weft/engine";
import type { PrismaClient, RunEvent as RunEventRow } from "../../generated/prisma/client.js";
import type { RunEventMessage } from "../../pubsub.js";
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

/** What a run's subscribers catch up from: read after they asked. */
export interface Replay {
  /** The run had ended when it was read, so its terminal event is among the stored ones. */
  finished: boolean;
  /** The run's last stored seq, read before its events. */
  lastSeq: number;
  /** Its stored events after the lowest seq asked for, in seq order. */
  events: readonly RunEventMessage[];
}

export interface ReplaySource {
  /** Null when the run does not exist. The read starts after this call. */
  read(runId: string, afterSeq: number): Promise<Replay | null>;
}

interface Batch {
  afterSeq: number;
  replay: Promise<Replay | null>;
  start(): void;
}

/**
 * Catch-up reads shared by the subscriptions of one run that ask at about the same time: a thousand
 * clients following a run that has just started were a thousand reads of the same rows (three statements
 * each with the existence check), most of the API's work while they subscribed.
 *
 * Sharing keeps the replay-then-live guarantee: each subscription asks only once its bus subscription is
 * active, and a read serves only the subscriptions that asked before it started. Those that ask while a
 * read of their run is on its way wait for the next one, which starts when it ends and serves all of them
 * (from the lowest seq asked for; each skips what it has). The events of one read are the same objects
 * for all of its subscriptions, so their results are shared too (graphql/subscription-fanout.ts).
 */
export class RunEventReplays implements ReplaySource {
  /** Per run: the read that will start next, which newcomers join. */
  readonly #next = new Map<string, Batch>();
  /** Per run: the read on its way, after which the next one starts. */
  readonly #reading = new Map<string, Promise<unknown>>();

  constructor(private readonly db: PrismaClient) {}

  read(runId: string, afterSeq: number): Promise<Replay | null> {
    let batch = this.#next.get(runId);
    if (!batch) {
      batch = this.#batch(runId, afterSeq);
      this.#next.set(runId, batch);
      // Never in this call: others asking in the same turn join it.
      void (this.#reading.get(runId) ?? Promise.resolve()).then(batch.start);
    }
    batch.afterSeq = Math.min(batch.afterSeq, afterSeq);
    return batch.replay;
  }

  #batch(runId: string, afterSeq: number): Batch {
    let start!: () => void;
    const started = new Promise<void>((resolve) => (start = resolve));
    const batch: Batch = {
      afterSeq,
      start: () => start(),
      replay: started.then(() => {
        // From here on, whoever asks waits for the next read.
        this.#next.delete(runId);
        const reading = readReplay(this.db, runId, batch.afterSeq);
        const settled = reading.catch(() => undefined);
        this.#reading.set(runId, settled);
        void settled.then(() => {
          if (this.#reading.get(runId) === settled) this.#reading.delete(runId);
        });
        return reading;
      }),
    };
    return batch;
  }
}

/** The run's status and last seq, then its stored events after `afterSeq`, a page at a time. */
async function readReplay(db: PrismaClient, runId: string, afterSeq: number): Promise<Replay | null> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { status: true, lastSeq: true } });
  if (!run) return null;
  const events: RunEventMessage[] = [];
  for (let after = afterSeq; ; ) {
    const rows = await db.runEvent.findMany({ where: { runId, seq: { gt: after } }, orderBy: { seq: "asc" }, take: REPLAY_PAGE });
    for (const row of rows) events.push(toEventMessage(row));
    if (rows.length < REPLAY_PAGE) break;
    after = rows.at(-1)!.seq;
  }
  return { finished: !isActiveRunStatus(run.status), lastSeq: run.lastSeq, events };
}
