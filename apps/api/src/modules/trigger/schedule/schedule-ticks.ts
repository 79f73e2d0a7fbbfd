import { Cron } from "croner";

/**
 * A schedule's ticks, by croner: 5 fields (minute precision) or 6 (seconds first), read in an IANA time
 * zone. Pure: every answer is relative to the `now` given.
 */

export function cronOf(cron: string, timezone: string): Cron {
  return new Cron(cron, { paused: true, mode: "5-or-6-parts", timezone });
}

/** The first tick after `after`. */
export function nextTickAfter(cron: string, timezone: string, after: Date): Date | null {
  return cronOf(cron, timezone).nextRun(after);
}
