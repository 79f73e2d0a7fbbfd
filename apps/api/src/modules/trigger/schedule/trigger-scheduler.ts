import type { Trigger as TriggerRow } from "../../../generated/prisma/client.js";

/** What a scheduler needs of a schedule trigger's row. */
export type ScheduleRow = Pick<TriggerRow, "id" | "kind" | "enabled" | "cron" | "timezone">;

/**
 * Ticks schedule triggers: in this process (no Redis), or through BullMQ job schedulers shared by every
 * process (with Redis). Either way each tick reaches TriggerFiringService.tick, whose claim on
 * `tick:<time>` makes it fire once however many processes see it.
 */
export interface TriggerScheduler {
  /** Ticks the trigger as its row now says: enabled with its cron and zone, or not at all. */
  sync(row: ScheduleRow): Promise<void>;
  remove(triggerId: string): Promise<void>;
  /** The next tick of an enabled schedule, from now. */
  nextTick(row: ScheduleRow): Date | null;
  /** Loads every enabled schedule and catches up what was missed while no process ran (call once at start). */
  start(): Promise<void>;
  close(): Promise<void>;
}
