import { retainMessages, turnMessages, type JsonValue, type ThreadHistory, type ThreadMessage, type ThreadRetention } from "@weft/engine";

/** A thread as plain data: what the command line keeps in a thread file. */
export interface ThreadSnapshot {
  messages: ThreadMessage[];
  /** The thread-scoped state channels' values. */
  state: Record<string, JsonValue>;
}

export const NO_RETENTION: ThreadRetention = { maxMessages: null, maxAgeSeconds: null };

/**
 * A thread in memory (SPEC-V2 §7), for the command line and tests: `history` nodes read its messages;
 * a completed run records its turn — question and answer appended, thread channels replaced, retention
 * applied. The API keeps threads in the database with the same engine rules.
 */
export class InMemoryThread implements ThreadHistory {
  #messages: ThreadMessage[];
  #state: Record<string, JsonValue>;

  constructor(
    snapshot: Partial<ThreadSnapshot> = {},
    private readonly retention: ThreadRetention = NO_RETENTION,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.#messages = retainMessages(snapshot.messages ?? [], retention, now());
    this.#state = { ...snapshot.state };
  }

  async recentMessages(limit: number, signal: AbortSignal): Promise<ThreadMessage[]> {
    signal.throwIfAborted();
    return this.#messages.slice(Math.max(0, this.#messages.length - limit));
  }

  /** The thread channels' values to start a run with. */
  get state(): Record<string, JsonValue> {
    return { ...this.#state };
  }

  /** After a completed run: its question and answer appended, its final thread channels kept. */
  recordTurn(turn: { runId: string; question: string; answer: string; state: Record<string, JsonValue> }): void {
    const at = this.now();
    this.#messages = retainMessages([...this.#messages, ...turnMessages({ ...turn, at })], this.retention, at);
    this.#state = { ...turn.state };
  }

  snapshot(): ThreadSnapshot {
    return { messages: this.#messages.map((message) => ({ ...message })), state: { ...this.#state } };
  }
}
