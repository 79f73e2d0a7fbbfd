import { describe, expect, test } from "vitest";
import { planTicks } from "./tick-plan.js";

const at = (iso: string) => new Date(iso);
const EVERY_2_S = "*/2 * * * * *";

describe("which ticks a process fires", () => {
  test("a tick delivered on time fires alone", () => {
    const plan = planTicks(EVERY_2_S, "UTC", at("2026-03-01T10:00:00Z"), at("2026-03-01T10:00:02Z"), at("2026-03-01T10:00:02.010Z"), "NONE");
    expect(plan).toEqual({ fire: [at("2026-03-01T10:00:02Z")], missed: null });
  });

  test("ticks the queue skipped on a busy machine fire late, once each, oldest first", () => {
    //   last handled 10:00:00 ··· 02 (never delivered) ··· 04 (delivered at 04.9)
    const plan = planTicks(EVERY_2_S, "UTC", at("2026-03-01T10:00:00Z"), at("2026-03-01T10:00:04Z"), at("2026-03-01T10:00:04.900Z"), "NONE");
    expect(plan.fire).toEqual([at("2026-03-01T10:00:02Z"), at("2026-03-01T10:00:04Z")]);
  });

  test("ticks later than the starting deadline were missed: NONE fires none and records the latest", () => {
    const plan = planTicks("0 * * * *", "UTC", at("2026-03-01T06:00:00Z"), at("2026-03-01T10:30:00Z"), at("2026-03-01T10:30:00Z"), "NONE");
    expect(plan).toEqual({ fire: [], missed: at("2026-03-01T10:00:00Z") });
  });

  test("LAST fires the latest missed tick once", () => {
    const plan = planTicks("0 * * * *", "UTC", at("2026-03-01T06:00:00Z"), at("2026-03-01T10:30:00Z"), at("2026-03-01T10:30:00Z"), "LAST");
    expect(plan).toEqual({ fire: [at("2026-03-01T10:00:00Z")], missed: null });
  });

  test("after a short restart, ticks within the deadline fire and the older ones count as missed", () => {
    const plan = planTicks("*/20 * * * * *", "UTC", at("2026-03-01T10:00:00Z"), at("2026-03-01T10:01:40Z"), at("2026-03-01T10:01:40Z"), "LAST");
    expect(plan.fire).toEqual([at("2026-03-01T10:00:40Z"), at("2026-03-01T10:01:00Z"), at("2026-03-01T10:01:20Z"), at("2026-03-01T10:01:40Z")]);
    expect(plan.missed).toEqual(at("2026-03-01T10:00:20Z"));
  });

  test("nothing is due when the last handled tick is the latest", () => {
    expect(planTicks(EVERY_2_S, "UTC", at("2026-03-01T10:00:02Z"), at("2026-03-01T10:00:03Z"), at("2026-03-01T10:00:03Z"), "LAST")).toEqual({ fire: [], missed: null });
  });
});
