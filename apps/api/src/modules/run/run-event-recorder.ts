import type { RunEvent } from "@weft/engine";
import type { PrismaClient } from "../../generated/prisma/client.js";
import { ALL_RUNS, type EventBus, type RunEventMessage, type RunStatusValue } from "../../pubsub.js";
import { mergeWrites } from "./run-event-batch.js";
import { eventWrites, type EventWrites } from "./run-event-record.js";
import { batchStatement } from "./run-event-sql.js";

/** Events queued behind the write in flight before the engine is held back (back-pressure). */
export const MAX_QUEUED_EVENTS = 64;

const TERMINAL = new Set<RunEvent["type"]>(["RUN_COMPLETED", "RUN_FAILED", "RUN_CANCELLED"]);

/**
 * The executor's onEvent, with group commit: events that arrive while a write is in flight (the engine
 * emits NODE_DESCRIPTION, NODE_COMPLETED and the next NODE_STARTED back to back) are stored together in
 * one statement, THEN published in seq order. Nothing is published before it is stored, so a subscriber
 * that reads the database after subscribing never misses an event.
 *
 * `record` resolves once the event is queued, so the engine can hand over the next one; it waits for the
 * writes when MAX_QUEUED_EVENTS are queued and for a terminal event, so the run ends only once all of
 * its events are stored. A failed write stores and publishes none of its batch and nothing after it:
 * that and every later `record` reject, which ends the run (the worker then marks it FAILED).
 */
export class RunEventRecorder {
  #queue: EventWrites[] = [];
  #writing: Promise<void> | null = null;
  #failure: { error: unknown } | null = null;

  constructor(
    private readonly db: PrismaClient,
    private readonly bus: EventBus,
    private readonly workflowId: string,
  ) {}

  readonly record = (event: RunEvent): Promise<void> => {
    if (this.#failure) return Promise.reject(this.#failure.error);
    this.#queue.push(eventWrites(event));
    this.#writing ??= this.#writeQueued();
    if (TERMINAL.has(event.type) || this.#queue.length >= MAX_QUEUED_EVENTS) return this.stored();
    return Promise.resolve();
  };

  /** Settles once every queued event is stored and published; rejects if a write failed. */
  async stored(): Promise<void> {
    await this.idle();
    if (this.#failure) throw this.#failure.error;
  }

  /** Settles once no write is in flight; never rejects (for ending a run after a failure). */
  async idle(): Promise<void> {
    while (this.#writing) await this.#writing;
  }

  async #writeQueued(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        // Yield to I/O before each write: events emitted back to back join this batch, and on the
        // embedded database (answering in-process) sockets get a turn between batches instead of
        // receiving a fast run's events in one burst at its end.
        await new Promise<void>((resolve) => setImmediate(resolve));
        const batch = this.#queue;
        this.#queue = [];
        await this.db.$executeRaw(batchStatement(mergeWrites(batch)));
        for (const writes of batch) await this.publish(writes.message, writes.status);
      }
    } catch (error) {
      this.#failure = { error };
      this.#queue = [];
    } finally {
      this.#writing = null;
    }
  }

  async publish(message: RunEventMessage, status: RunStatusValue | null): Promise<void> {
    await this.bus.publish("runEvents", message.runId, message);
    if (status) {
      await this.bus.publish("runStatus", ALL_RUNS, { runId: message.runId, workflowId: this.workflowId, status, at: message.at });
    }
  }
}
