import { describe, expect, it } from "vitest";
import { experimentsNamed, readGateRefusal } from "./gate-refusal";

const BELOW = { code: "PUBLISH_GATE_FAILED", message: "experiment cand-1: scorers below the minimum mean 0.5: exact (mean 0.333)", path: ["scorers", "exact"] };
const REGRESSED = { code: "PUBLISH_GATE_FAILED", message: "experiment cand-1: 2 rows regressed against version 1 (experiment base_2): rows 1, 3", path: ["rows", "r1", "r3"] };

describe("a publish the gate refused", () => {
  it("names the failing scorers and the regressed rows from the errors' paths", () => {
    expect(readGateRefusal([BELOW, REGRESSED])).toEqual({ scorers: ["exact"], rowIds: ["r1", "r3"], messages: [BELOW.message, REGRESSED.message] });
  });

  it("is no refusal of the gate when no error has its code", () => {
    expect(readGateRefusal([{ code: "CONFLICT", message: "edited meanwhile", path: null }])).toBeNull();
    expect(readGateRefusal(undefined)).toBeNull();
  });

  it("finds the draft's and the published version's experiments for the comparison link", () => {
    expect(experimentsNamed(readGateRefusal([BELOW, REGRESSED])!)).toEqual({ candidate: "cand-1", baseline: "base_2" });
    expect(experimentsNamed(readGateRefusal([BELOW])!)).toEqual({ candidate: "cand-1", baseline: null });
  });
});
