import { describe, expect, it } from "vitest";
import { layoutTimeline, MIN_BAR_PCT, tickStep, type TimelineItem } from "./timeline-layout";

const T0 = Date.parse("2026-11-21T10:00:00.000Z");
const at = (ms: number) => new Date(T0 + ms).toISOString();
const item = (id: string, start: number | null, end: number | null): TimelineItem => ({
  id,
  startedAt: start === null ? null : at(start),
  finishedAt: end === null ? null : at(end),
});

describe("timeline layout", () => {
  it("places bars as percentages of the run's span from the run's start", () => {
    //   input      [0 ─ 100)
    //   generation      [100 ──────── 400)
    //   output                         [400 ─ 500)
    const layout = layoutTimeline([item("in", 0, 100), item("gen", 100, 400), item("out", 400, 500)], {
      origin: at(0),
      now: T0 + 10_000,
    });
    expect(layout.spanMs).toBe(500);
    expect(layout.bars.map((b) => [b.id, b.offsetPct, b.widthPct, b.durationMs])).toEqual([
      ["in", 0, 20, 100],
      ["gen", 20, 60, 300],
      ["out", 80, 20, 100],
    ]);
  });

  it("extends a node that is still running to now and marks it open", () => {
    const layout = layoutTimeline([item("a", 0, 200), item("b", 200, null)], { origin: at(0), now: T0 + 1000 });
    expect(layout.spanMs).toBe(1000);
    const b = layout.bars[1]!;
    expect(b.open).toBe(true);
    expect(b.offsetPct).toBe(20);
    expect(b.widthPct).toBe(80);
  });

  it("leaves nodes that never started without a bar", () => {
    const layout = layoutTimeline([item("a", 0, 100), item("skipped", null, null)], { origin: at(0), now: T0 });
    expect(layout.bars[1]).toMatchObject({ offsetPct: null, widthPct: null, durationMs: null });
  });

  it("widens an instant node to the minimum width without leaving the track", () => {
    const layout = layoutTimeline([item("slow", 0, 100_000), item("instant", 100_000, 100_000)], {
      origin: at(0),
      now: T0,
    });
    const instant = layout.bars[1]!;
    expect(instant.widthPct).toBe(MIN_BAR_PCT);
    expect(instant.offsetPct! + instant.widthPct!).toBeLessThanOrEqual(100);
    expect(instant.durationMs).toBe(0);
  });

  it("falls back to the earliest node start when the run has no start time", () => {
    const layout = layoutTimeline([item("a", 50, 150), item("b", 150, 250)], { origin: null, now: T0 });
    expect(layout.spanMs).toBe(200);
    expect(layout.bars[0]!.offsetPct).toBe(0);
    expect(layout.bars[1]!.offsetPct).toBe(50);
  });

  it("puts ticks at round steps from zero up to the span", () => {
    const layout = layoutTimeline([item("a", 0, 2300)], { origin: at(0), now: T0 });
    expect(layout.ticks.map((t) => t.ms)).toEqual([0, 500, 1000, 1500, 2000]);
    expect(layout.ticks.every((t) => t.pct >= 0 && t.pct <= 100)).toBe(true);
  });

  it("chooses 1, 2 or 5 times a power of ten as the tick step", () => {
    expect(tickStep(6)).toBe(1);
    expect(tickStep(7)).toBe(2);
    expect(tickStep(2300)).toBe(500);
    expect(tickStep(60_000)).toBe(10_000);
    expect(tickStep(61_000)).toBe(20_000);
  });
});
