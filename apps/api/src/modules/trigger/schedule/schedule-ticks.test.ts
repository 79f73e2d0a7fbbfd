import { describe, expect, test } from "vitest";
import { nextTickAfter } from "./schedule-ticks.js";

const at = (iso: string) => new Date(iso);

describe("schedule ticks", () => {
  test("a 5-field cron ticks on minutes; a 6-field one on seconds", () => {
    expect(nextTickAfter("*/15 * * * *", "UTC", at("2026-03-01T10:07:30Z"))).toEqual(at("2026-03-01T10:15:00Z"));
    expect(nextTickAfter("*/2 * * * * *", "UTC", at("2026-03-01T10:07:31.500Z"))).toEqual(at("2026-03-01T10:07:32Z"));
  });

  test("a cron is read in its time zone, daylight saving included", () => {
    // 09:00 in Seoul (UTC+9, no DST) is midnight UTC; 09:00 in New York is 14:00 UTC in winter, 13:00 in summer.
    expect(nextTickAfter("0 9 * * *", "Asia/Seoul", at("2026-03-01T01:00:00Z"))).toEqual(at("2026-03-02T00:00:00Z"));
    expect(nextTickAfter("0 9 * * *", "America/New_York", at("2026-03-01T15:00:00Z"))).toEqual(at("2026-03-02T14:00:00Z"));
    expect(nextTickAfter("0 9 * * *", "America/New_York", at("2026-07-01T15:00:00Z"))).toEqual(at("2026-07-02T13:00:00Z"));
  });
});
