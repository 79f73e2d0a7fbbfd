import { describe, expect, it } from "vitest";
import { formatCost, formatDelta, formatExpected, formatLatency, formatRate, formatScore } from "./experiment-format";

describe("the evaluation pages' numbers", () => {
  it("writes scores with two decimals and rates as percentages", () => {
    expect(formatScore(1 / 3)).toBe("0.33");
    expect(formatRate(2 / 3)).toBe("67%");
    expect(formatScore(null)).toBe("—");
    expect(formatRate(undefined)).toBe("—");
  });

  it("writes latencies in milliseconds under a second and in seconds above", () => {
    expect(formatLatency(42.4)).toBe("42 ms");
    expect(formatLatency(1234)).toBe("1.23 s");
    expect(formatLatency(65_000)).toBe("65.0 s");
  });

  it("writes costs in dollars as the run pages do, fractions of a cent included, none as a dash", () => {
    expect(formatCost(1.5)).toBe("$1.50");
    expect(formatCost(0.000123)).toBe("$0.000123");
    expect(formatCost(0)).toBe("$0.00");
    expect(formatCost(null)).toBe("—");
  });

  it("signs a change of mean score", () => {
    expect(formatDelta(0.5)).toBe("+0.50");
    expect(formatDelta(-0.25)).toBe("-0.25");
    expect(formatDelta(-0.001)).toBe("0.00");
    expect(formatDelta(null)).toBe("—");
  });

  it("writes an expected value as text or JSON", () => {
    expect(formatExpected("Paris")).toBe("Paris");
    expect(formatExpected({ city: "Seoul" })).toBe('{"city":"Seoul"}');
    expect(formatExpected(null)).toBe("—");
  });
});
