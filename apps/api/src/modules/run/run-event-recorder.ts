import type { RunEvent } from "@weft/engine";
import type { PrismaClient } from "../../generated/prisma/client.js";
import { ALL_RUNS, type EventBus, type RunEventMessage, type RunStatusValue } from "../../pubsub.js";
import { eventWrites } from "./run-event-record.js";
import { eventStatement } from "./run-event-sql.js";

/**
 * The executor's onEvent: writes the event and its effects in one statement, THEN publishes it.
 * A subscriber that reads the database after subscribing therefore never misses an event.
 */
export class RunEventRecorder {
  constructor(
    private readonly db: PrismaClient,
    private readonly bus: EventBus,
    private readonly workflowId: string,
  ) {}

  readonly record = async (event: RunEvent): Promise<void> => {
    const writes = eventWrites(event);
    const { message } = writes;
    await this.db.$executeRaw(eventStatement(writes));
    await this.publish(message, writes.status);
    // The embedded database answers in-process, so a run whose model answers at once (offline, cached)
    // would chain writes as promise continuations and starve sockets until it ends: subscribers would get
    // its events in one burst at the end, and other requests would wait. Yield to I/O after each event.
    await new Promise<void>((resolve) => setImmediate(resolve));
  };

  async publish(message: RunEventMessage, status: RunStatusValue | null): Promise<void> {
    await this.bus.publish("runEvents", message.runId, message);
    if (status) {
      await this.bus.publish("runStatus", ALL_RUNS, { runId: message.runId, workflowId: this.workflowId, status, at: message.at });
    }
  }
}
