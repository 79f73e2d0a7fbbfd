import { cronOf } from "./schedule-ticks.js";

/**
 * Which ticks of a schedule to fire, and which to record as missed, when a process handles the ticks
 * due up to `upTo` (a queued tick, or now at start-up). Like Kubernetes' startingDeadlineSeconds: a tick
 * up to STARTING_DEADLINE_MS late still fires (a busy machine, a short restart), including ticks the
 * queue never delivered; one later than that was missed while no process ran, and catchUp decides:
 * NONE fires none of them (the latest is recorded as missed), LAST fires the latest once.
 * Pure: a function of the schedule, the last tick handled and the time.
 */

export const STARTING_DEADLINE_MS = 60_000;
/** Ticks looked at per call: a fine cron after a long downtime has many more, all of them missed. */
const MAX_TICKS = 100;

export interface TickPlan {
  /** Ticks to fire, oldest first (each claimed once by its key). */
  fire: Date[];
  /** The latest missed tick that is not fired (recorded as SKIPPED TICK_MISSED), if any. */
  missed: Date | null;
}

export function planTicks(cron: string, timezone: string, lastTickAt: Date | null, upTo: Date, now: Date, catchUp: "NONE" | "LAST"): TickPlan {
  const due = dueTicks(cron, timezone, lastTickAt, upTo);
  const fire = due.filter((tick) => now.getTime() - tick.getTime() <= STARTING_DEADLINE_MS);
  const late = due.filter((tick) => now.getTime() - tick.getTime() > STARTING_DEADLINE_MS);
  const latestLate = late.at(-1) ?? null;
  if (catchUp === "LAST" && fire.length === 0 && latestLate) return { fire: [latestLate], missed: null };
  return { fire, missed: latestLate };
}

/** The ticks in (lastTickAt, upTo], oldest first, at most the latest MAX_TICKS; `upTo` alone when nothing was handled yet. */
function dueTicks(cron: string, timezone: string, lastTickAt: Date | null, upTo: Date): Date[] {
  const schedule = cronOf(cron, timezone);
  // previousRuns drops milliseconds and looks strictly before its reference: a second past upTo's includes it.
  const reference = new Date(Math.floor(upTo.getTime() / 1000) * 1000 + 1000);
  const recent = schedule.previousRuns(MAX_TICKS, reference).reverse();
  if (lastTickAt === null) return recent.slice(-1);
  return recent.filter((tick) => tick.getTime() > lastTickAt.getTime());
}
