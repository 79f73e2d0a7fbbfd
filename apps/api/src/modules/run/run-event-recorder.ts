import type { RunEvent } from "@weft/engine";
import type { Prisma, PrismaClient } from "../../generated/prisma/client.js";
import { ALL_RUNS, type EventBus, type RunEventMessage, type RunStatusValue } from "../../pubsub.js";
import { eventWrites } from "./run-event-record.js";

/**
 * The executor's onEvent: writes the event and its effects in one transaction, THEN publishes it.
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
    const operations: Prisma.PrismaPromise<unknown>[] = [
      this.db.runEvent.create({
        data: {
          runId: message.runId,
          seq: message.seq,
          type: message.type,
          nodeKey: message.nodeId,
          payload: message.payload as Prisma.InputJsonObject,
          at: new Date(message.at),
        },
      }),
    ];
    if (writes.nodeRun) {
      operations.push(
        this.db.nodeRun.update({
          where: { runId_nodeKey: { runId: message.runId, nodeKey: writes.nodeRun.nodeKey } },
          data: writes.nodeRun.data,
        }),
      );
    }
    operations.push(this.db.run.update({ where: { id: message.runId }, data: writes.run }));
    await this.db.$transaction(operations);
    await this.publish(message, writes.status);
  };

  async publish(message: RunEventMessage, status: RunStatusValue | null): Promise<void> {
    await this.bus.publish("runEvents", message.runId, message);
    if (status) {
      await this.bus.publish("runStatus", ALL_RUNS, { runId: message.runId, workflowId: this.workflowId, status, at: message.at });
    }
  }
}
