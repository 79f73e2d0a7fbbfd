import { describe, expect, it } from "vitest";
import { compareRowScores, type RowScores } from "./experiment-comparison.js";

const row = (rowId: string, ...scores: [string, number, boolean][]): RowScores => ({ rowId, scores: scores.map(([scorer, score, pass]) => ({ scorer, score, pass, reason: "" })) });

describe("comparing two experiments row by row", () => {
  it("names a row regressed when a scorer that passed fails, improved when one that failed passes", () => {
    const a = [row("r1", ["exact", 1, true], ["judge", 0.9, true]), row("r2", ["exact", 0, false]), row("r3", ["exact", 1, true]), row("r4", ["exact", 1, true], ["judge", 0.2, false])];
    const b = [row("r4", ["exact", 0, false], ["judge", 0.9, true]), row("r3", ["exact", 1, true]), row("r2", ["exact", 1, true]), row("r1", ["exact", 1, true], ["judge", 0.7, true])];
    const compared = compareRowScores(["r1", "r2", "r3", "r4"], a, b);
    expect(compared.rows.map(({ rowId, delta, regressed, improved }) => [rowId, delta, regressed, improved])).toEqual([
      ["r1", -0.1, false, false],
      ["r2", 1, false, true],
      ["r3", 0, false, false],
      ["r4", -0.15, true, false],
    ]);
    expect(compared).toMatchObject({ regressions: 1, improvements: 1 });
  });

  it("lists a row only one experiment has, neither regressed nor improved, and compares only the scorers both have", () => {
    const compared = compareRowScores(["r1", "r2", "r3"], [row("r1", ["exact", 1, true], ["old", 1, true])], [row("r1", ["exact", 1, true], ["new", 0, false]), row("r2", ["exact", 0, false])]);
    expect(compared.rows).toEqual([
      expect.objectContaining({ rowId: "r1", delta: 0, regressed: false, improved: false }),
      expect.objectContaining({ rowId: "r2", scoresA: null, delta: null, regressed: false, improved: false }),
    ]);
  });
});
