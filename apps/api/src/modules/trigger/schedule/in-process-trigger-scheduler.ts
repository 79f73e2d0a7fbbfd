import { Cron } from "croner";
import type { PrismaClient } from "../../../generated/prisma/client.js";
import type { Logger } from "../../../logger.js";
import { nextTickAfter } from "./schedule-ticks.js";
import type { ScheduleRow, TriggerScheduler } from "./trigger-scheduler.js";

/** Hands the ticks due up to a time to the firing service (TriggerFiringService.tick). */
export type FireTick = (triggerId: string, upTo: Date) => Promise<void>;

/**
 * Schedules ticked by croner in this process: the single process of embedded mode (or server mode
 * without Redis). A change made through this process's API reaches it at once (sync/remove).
 */
export class InProcessTriggerScheduler implements TriggerScheduler {
  readonly #jobs = new Map<string, Cron>();
  readonly #firing = new Set<Promise<void>>();
  #closed = false;

  constructor(
    private readonly db: PrismaClient,
    private readonly fire: FireTick,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    const rows = await this.db.trigger.findMany({ where: { kind: "SCHEDULE", enabled: true } });
    const now = new Date();
    for (const row of rows) {
      await this.sync(row);
      // What came due while no process ran: fired or recorded as missed (tick-plan.ts).
      await this.#fire(row.id, now);
    }
  }

  async sync(row: ScheduleRow): Promise<void> {
    await this.remove(row.id);
    if (this.#closed || row.kind !== "SCHEDULE" || !row.enabled || !row.cron) return;
    // `protect`: a slow firing is not run again by the next tick while it is still going; each call handles
    // every tick due by now, so one skipped that way (or by a late timer) still fires.
    const job = new Cron(row.cron, { mode: "5-or-6-parts", timezone: row.timezone ?? "UTC", protect: true, unref: true }, () => this.#fire(row.id, new Date()));
    this.#jobs.set(row.id, job);
  }

  async remove(triggerId: string): Promise<void> {
    this.#jobs.get(triggerId)?.stop();
    this.#jobs.delete(triggerId);
  }

  nextTick(row: ScheduleRow): Date | null {
    return row.cron ? nextTickAfter(row.cron, row.timezone ?? "UTC", new Date()) : null;
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#jobs.values()) job.stop();
    this.#jobs.clear();
    // A tick being fired finishes before the database it writes to is closed.
    await Promise.all(this.#firing);
  }

  async #fire(triggerId: string, tick: Date): Promise<void> {
    if (this.#closed) return;
    const firing = this.fire(triggerId, tick).catch((error: unknown) => this.logger.error({ err: error, triggerId, tick }, "schedule tick failed"));
    this.#firing.add(firing);
    await firing;
    this.#firing.delete(firing);
  }
}
