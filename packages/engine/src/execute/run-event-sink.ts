import type { RunEvent, RunEventDraft } from "../events/run-event.js";
import { isoClock } from "./iso-clock.js";

/**
 * Receives a run's events. Called synchronously, in `seq` order. When it returns a promise (the API
 * persists an event before publishing it), later events are queued and the run does not schedule more
 * work until the promise settles: slow persistence slows the run instead of piling events up. A throw
 * or rejection ends the run (runWorkflow rejects with RUN_EVENT_HANDLER_FAILED).
 */
export type RunEventHandler = (event: RunEvent) => void | Promise<void>;

/** Stamps drafts with `seq` (from 1), `runId` and `at`, and delivers them in order. */
export class RunEventSink {
  readonly #runId: string;
  readonly #handler: RunEventHandler;
  readonly #iso: () => string;
  readonly #onFailure: (error: unknown) => void;
  #seq = 0;
  #closed = false;
  #queue: RunEvent[] = [];
  #pending: Promise<void> | null = null;

  /** `lastSeq`: the seq already used (a resumed run continues after the stored events). */
  constructor(runId: string, handler: RunEventHandler, now: () => number, onFailure: (error: unknown) => void, lastSeq = 0) {
    this.#seq = lastSeq;
    this.#runId = runId;
    this.#handler = handler;
    this.#iso = isoClock(now);
    this.#onFailure = onFailure;
  }

  /** Whether a handler promise is still pending. */
  get busy(): boolean {
    return this.#pending !== null;
  }

  get lastSeq(): number {
    return this.#seq;
  }

  /** Stamps and delivers a draft; the draft object becomes the event (callers pass a fresh object). */
  emit(draft: RunEventDraft): void {
    if (this.#closed) return;
    this.#seq += 1;
    // The sink takes the draft over and stamps it in place (no copy: events can be large and many).
    const event = Object.assign(draft, { seq: this.#seq, runId: this.#runId, at: this.#iso() }) as RunEvent;
    if (this.#pending) this.#queue.push(event);
    else this.#deliver(event);
  }

  /** No event is accepted after this (the terminal event has been emitted, or the handler failed). */
  close(): void {
    this.#closed = true;
  }

  /** Settles once every emitted event has been handled. */
  flush(): Promise<void> {
    return this.#pending ?? Promise.resolve();
  }

  #deliver(event: RunEvent): void {
    let result: void | Promise<void>;
    try {
      result = this.#handler(event);
    } catch (error) {
      this.#fail(error);
      return;
    }
    if (result && typeof result.then === "function") this.#pending = this.#drainAfter(result);
  }

  async #drainAfter(first: Promise<void>): Promise<void> {
    try {
      await first;
      for (let head = 0; head < this.#queue.length; head += 1) await this.#handler(this.#queue[head]!);
    } catch (error) {
      this.#fail(error);
    } finally {
      this.#queue = [];
      this.#pending = null;
    }
  }

  #fail(error: unknown): void {
    this.#closed = true;
    this.#queue = [];
    this.#onFailure(error);
  }
}
