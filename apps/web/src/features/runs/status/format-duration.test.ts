import { describe, expect, it } from "vitest";
import { elapsedMs, formatDuration } from "./format-duration";

describe("duration formatting", () => {
  it("uses the unit that keeps the number short", () => {
    expect(formatDuration(840)).toBe("840 ms");
    expect(formatDuration(4_230)).toBe("4.2 s");
    expect(formatDuration(42_000)).toBe("42 s");
    expect(formatDuration(185_000)).toBe("3 min 05 s");
    expect(formatDuration(3_720_000)).toBe("1 h 02 min");
  });

  it("shows a dash for unknown or nonsensical durations", () => {
    expect(formatDuration(null)).toBe("—");
    expect(formatDuration(-5)).toBe("—");
    expect(formatDuration(Number.NaN)).toBe("—");
  });

  it("measures an open interval up to now and nothing before a start", () => {
    const start = "2026-11-21T10:00:00.000Z";
    expect(elapsedMs(start, "2026-11-21T10:00:01.500Z", 0)).toBe(1500);
    expect(elapsedMs(start, null, Date.parse(start) + 700)).toBe(700);
    expect(elapsedMs(null, null, 0)).toBeNull();
  });
});
