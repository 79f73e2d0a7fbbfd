import { TERMINAL_EVENT_TYPES, type RunEvent } from "@weft/engine";
import { ALL_RUNS, type EventBus } from "../../pubsub.js";
import { mergeWrites } from "./run-event-batch.js";
import type { RunEnd } from "./run-ending.js";
import { eventWrites, type EventWrites, type NodeTypesById } from "./run-event-record.js";
import type { RunEventWriter } from "./run-event-writer.js";

/** Which workflow and version a run belongs to, as status messages name them. */
export interface RunScope {
  workflowId: string;
  /** Published version number; null for a run of the draft. */
  version: number | null;
}

/** At most this many events go into one write; the one that fills a batch waits for it. */
export const MAX_BATCH_EVENTS = 16;

/**
 * A node's result closes its batch and waits for it: clients wait for these events, and an engine
 * allowed to start the next node first (whose model may answer at once) would make them wait longer.
 * A task's opening (NODE_WAITING) does too: its timeout is set once its record settles, and a timer due
 * at once must find the task stored (else the expiry finds no row and the task never expires).
 */
const CLOSES_BATCH = new Set<RunEvent["type"]>(["NODE_COMPLETED", "NODE_FAILED", "NODE_WAITING"]);

/**
 * The executor's onEvent, with group commit: events emitted back to back (the engine emits
 * NODE_DESCRIPTION, NODE_COMPLETED and the next NODE_STARTED within one turn of the event loop) are
 * stored together in one statement, THEN published in seq order. Nothing is published before it is
 * stored, so a subscriber that reads the database after subscribing never misses an event.
 *
 * Back-pressure: `record` resolves at once only while the next batch is still being collected and has
 * room; an event arriving while a write is in flight waits for that write, and one that fills or closes
 * a batch (a node's result) waits for its own, so the engine never runs more than one batch ahead of the
 * database. A terminal event waits until everything is stored, so the run ends only then. A failed write stores and publishes none of its batch and
 * nothing after it: that and every later `record` reject, which ends the run (the worker marks it FAILED,
 * unless the write was fenced off: then the run belongs to someone else and this worker just stops).
 */
export class RunEventRecorder {
  #queue: EventWrites[] = [];
  #loop: Promise<void> | null = null;
  #inFlight = false;
  #written = signal();
  #failure: { error: unknown } | null = null;
  #startedAt: Date | null = null;
  #ended: Omit<RunEnd, "runId" | "workflowId" | "startedAt"> | null = null;

  /** `nodeTypes`: every node of the run's workflow, bodies included (nodeTypesOf), for node runs created by their first event. */
  constructor(
    private readonly writer: RunEventWriter,
    private readonly bus: EventBus,
    private readonly scope: RunScope,
    private readonly nodeTypes: NodeTypesById,
    /** The claimed attempt whose events these are (fencing); null: unfenced. */
    private readonly attempt: number | null = null,
    /**
     * NODE_STARTED waits for its own write, like a node's result: with the engine's recordInFlight, a
     * node does no work before its start is stored (a run whose worker crashed: see crash-suspects.ts).
     */
    private readonly inFlightRecorded = false,
  ) {}

  readonly record = (event: RunEvent): Promise<void> => {
    if (this.#failure) return Promise.reject(this.#failure.error);
    this.#queue.push(eventWrites(event, this.nodeTypes));
    this.#loop ??= this.#writeQueued();
    if (TERMINAL_EVENT_TYPES.has(event.type)) return this.stored();
    const waits = CLOSES_BATCH.has(event.type) || (this.inFlightRecorded && event.type === "NODE_STARTED");
    if (waits || this.#queue.length >= MAX_BATCH_EVENTS) return this.#afterWrites(this.#inFlight ? 2 : 1);
    return this.#inFlight ? this.#afterWrites(1) : Promise.resolve();
  };

  /** Settles once every queued event is stored and published; rejects if a write failed. */
  async stored(): Promise<void> {
    await this.idle();
    if (this.#failure) throw this.#failure.error;
  }

  /** Settles once no write is pending; never rejects (for ending a run after a failure). */
  async idle(): Promise<void> {
    while (this.#loop) await this.#loop;
  }

  /** Settles after `count` more writes (the one in flight, if any, counts first). */
  async #afterWrites(count: number): Promise<void> {
    for (let write = 0; write < count; write += 1) {
      await this.#written.promise;
      if (this.#failure) throw this.#failure.error;
    }
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
        this.#inFlight = true;
        try {
          await this.writer.write(mergeWrites(batch, this.attempt));
          // Sent back to back, not one round trip after another: the bus keeps the order of the calls.
          await Promise.all(batch.map((writes) => this.#publish(writes)));
        } finally {
          this.#inFlight = false;
          const written = this.#written;
          this.#written = signal();
          written.resolve();
        }
      }
    } catch (error) {
      this.#failure = { error };
      this.#queue = [];
    } finally {
      this.#loop = null;
    }
  }

  /**
   * The run's end, once this attempt's engine ended it (its terminal event stored and published), as the
   * run stored it; `startedAt` is null when an earlier attempt started the run.
   */
  get ended(): Omit<RunEnd, "runId"> | null {
    return this.#ended && { workflowId: this.scope.workflowId, startedAt: this.#startedAt, ...this.#ended };
  }

  /**
   * Publishes a stored event (and the run's new status, if it changed). Both are handed to the bus before
   * this returns (the promise settles when the bus is done with them), so calls made one after another,
   * without waiting, are published in the order of the calls.
   */
  #publish({ message, status, run, task }: EventWrites): Promise<void> {
    if (task) void this.bus.publish("humanTasks", ALL_RUNS, { taskId: task.id, runId: message.runId, workflowId: this.scope.workflowId, status: "OPEN", at: message.at });
    if (message.type === "RUN_STARTED") this.#startedAt = new Date(message.at);
    if (status && status !== "RUNNING" && status !== "QUEUED") {
      this.#ended = { status, error: (run["error"] as { json: unknown } | null)?.json ?? null, finishedAt: new Date(message.at), totalTokens: Number(run["totalTokens"] ?? 0) };
    }
    const event = this.bus.publish("runEvents", message.runId, message);
    if (!status) return event;
    const change = this.bus.publish("runStatus", ALL_RUNS, { runId: message.runId, ...this.scope, status, at: message.at });
    return Promise.all([event, change]).then(() => undefined);
  }
}

function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}
