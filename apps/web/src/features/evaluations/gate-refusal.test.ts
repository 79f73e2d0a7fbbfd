import { describe, expect, it } from "vitest";
import { readGateRefusal } from "./gate-refusal";

const BELOW = { code: "PUBLISH_GATE_FAILED", message: "experiment cand-1: scorers below the minimum mean 0.5: exact (mean 0.333)", path: ["scorers", "exact"], experimentIds: ["cand-1"] };
const REGRESSED = { code: "PUBLISH_GATE_FAILED", message: "experiment cand-1: 2 rows regressed against version 1 (experiment base_2): rows 1, 3", path: ["rows", "r1", "r3"], experimentIds: ["cand-1", "base_2"] };

describe("a publish the gate refused", () => {
  it("names the failing scorers and the regressed rows from the errors' paths", () => {
    expect(readGateRefusal([BELOW, REGRESSED])).toEqual({ scorers: ["exact"], rowIds: ["r1", "r3"], messages: [BELOW.message, REGRESSED.message], candidate: "cand-1", baseline: "base_2" });
  });

  it("is no refusal of the gate when no error has its code", () => {
    expect(readGateRefusal([{ code: "CONFLICT", message: "edited meanwhile", path: null }])).toBeNull();
    expect(readGateRefusal(undefined)).toBeNull();
  });

  it("takes the draft's and the published version's experiments from the errors' experimentIds, not their sentences", () => {
    expect(readGateRefusal([REGRESSED, BELOW])).toMatchObject({ candidate: "cand-1", baseline: "base_2" });
    expect(readGateRefusal([BELOW])).toMatchObject({ candidate: "cand-1", baseline: null });
    expect(readGateRefusal([{ ...BELOW, experimentIds: null }])).toMatchObject({ candidate: null, baseline: null });
  });
});
