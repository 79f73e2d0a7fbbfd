import type { EventBus, ExperimentProgressMessage } from "../../pubsub.js";
import { AsyncQueue } from "../common/async-queue.js";

export function isFinished(status: ExperimentProgressMessage["status"]): boolean {
  return status !== "RUNNING";
}

/**
 * An experiment's progress on the bus (`experimentProgress:<id>`): published after every row and at the
 * end. A subscriber gets the stored state first, then live messages, and the stream ends after the
 * message that says the experiment finished. A failed publish never fails the experiment.
 */
export class ExperimentProgressChannel {
  constructor(private readonly bus: EventBus) {}

  publish(message: Omit<ExperimentProgressMessage, "at">): void {
    this.bus.publish("experimentProgress", message.experimentId, { ...message, at: new Date().toISOString() }).catch(() => undefined);
  }

  /** Calls `onMessage` for every message of the experiment until the returned function is called. */
  listen(experimentId: string, onMessage: (message: ExperimentProgressMessage) => void): Promise<() => void> {
    return this.bus.subscribe("experimentProgress", experimentId, onMessage);
  }

  /** Subscribes first, then reads the stored state (null: no such experiment), so nothing in between is lost. */
  async stream(experimentId: string, loadCurrent: () => Promise<ExperimentProgressMessage | null>): Promise<AsyncIterableIterator<ExperimentProgressMessage> | null> {
    let unsubscribe: (() => void) | null = null;
    const out = new AsyncQueue<ExperimentProgressMessage>(() => unsubscribe?.());
    const live: ExperimentProgressMessage[] = [];
    let replayed = false;
    const deliver = (message: ExperimentProgressMessage) => {
      out.push(message);
      if (isFinished(message.status)) out.end();
    };
    unsubscribe = await this.listen(experimentId, (message) => (replayed ? deliver(message) : live.push(message)));
    const current = await loadCurrent();
    if (!current) {
      unsubscribe();
      return null;
    }
    deliver(current);
    for (const message of live) deliver(message);
    replayed = true;
    return out;
  }
}
