import type { EventBus, WorkflowChangedMessage } from "../../pubsub.js";
import { AsyncQueue } from "../common/async-queue.js";

/**
 * Tells subscribers that a workflow changed. Called only after the edit's transaction has committed,
 * so a client that refetches on the message reads the new version (never a rolled-back one).
 */
export class WorkflowChanges {
  readonly #bus: EventBus | null;

  constructor(bus?: EventBus) {
    this.#bus = bus ?? null;
  }

  async committed(row: { id: string; version: number }, deleted = false): Promise<void> {
    if (!this.#bus) return;
    const message: WorkflowChangedMessage = { workflowId: row.id, version: row.version, at: new Date().toISOString(), deleted };
    await this.#bus.publish("workflowChanged", row.id, message);
  }

  /** Live changes of one workflow from now on; nothing is replayed (clients read the workflow first). */
  async stream(workflowId: string): Promise<AsyncIterableIterator<WorkflowChangedMessage>> {
    let unsubscribe: (() => void) | null = null;
    const out = new AsyncQueue<WorkflowChangedMessage>(() => unsubscribe?.());
    if (!this.#bus) return out;
    unsubscribe = await this.#bus.subscribe("workflowChanged", workflowId, (message) => out.push(message));
    return out;
  }
}
