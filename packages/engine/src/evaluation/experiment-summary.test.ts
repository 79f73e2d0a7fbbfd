import { describe, expect, it } from "vitest";
import { percentile, summarizeResults, type ResultFigures } from "./experiment-summary.js";

const result = (completed: boolean, latencyMs: number | null, exact: number, costUsd: number | null = null): ResultFigures => ({
  completed,
  latencyMs,
  tokens: 10,
  costUsd,
  scores: [
    { scorer: "exact", score: exact, pass: exact >= 1, reason: "" },
    { scorer: "judge", score: exact / 2, pass: exact / 2 >= 0.5, reason: "" },
  ],
});

describe("experiment summaries", () => {
  it("give means and pass rates per scorer, latency percentiles of completed runs, tokens and cost", () => {
    const latencies = Array.from({ length: 20 }, (_, index) => (index + 1) * 10);
    const results = [...latencies.map((latency, index) => result(true, latency, index < 15 ? 1 : 0, index === 0 ? 0.5 : null)), result(false, 9_999, 0)];
    const summary = summarizeResults(25, ["exact", "judge", "unused"], results);
    expect(summary).toEqual({
      rows: 25,
      completed: 20,
      failed: 1,
      scores: [
        { scorer: "exact", mean: 15 / 21, passRate: 15 / 21 },
        { scorer: "judge", mean: 7.5 / 21, passRate: 15 / 21 },
        { scorer: "unused", mean: null, passRate: null },
      ],
      latencyP50Ms: 100,
      latencyP95Ms: 190,
      tokens: 210,
      costUsd: 0.5,
    });
  });

  it("has nothing to say before any row is done", () => {
    expect(summarizeResults(3, ["exact"], [])).toMatchObject({ completed: 0, failed: 0, latencyP50Ms: null, costUsd: null, scores: [{ mean: null }] });
  });

  it("takes percentiles by nearest rank", () => {
    expect(percentile([5], 0.95)).toBe(5);
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(percentile([1, 2, 3, 4], 0.95)).toBe(4);
  });
});
