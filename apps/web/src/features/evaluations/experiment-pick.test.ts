import { describe, expect, it } from "vitest";
import { comparisonPair, togglePick } from "./experiment-pick";

const monday = { id: "mon", createdAt: "2026-11-23T09:00:00.000Z" };
const tuesday = { id: "tue", createdAt: "2026-11-24T09:00:00.000Z" };
const friday = { id: "fri", createdAt: "2026-11-27T09:00:00.000Z" };

describe("the two experiments picked for a comparison", () => {
  it("compares the older as the baseline with the newer, in whichever order they were picked", () => {
    expect(comparisonPair(togglePick(togglePick([], friday), monday))).toEqual({ a: "mon", b: "fri" });
    expect(comparisonPair(togglePick(togglePick([], monday), friday))).toEqual({ a: "mon", b: "fri" });
  });

  it("keeps a pick made on another page of the list (the pair needs no page to be shown)", () => {
    const fromPageOne = togglePick([], friday);
    const withPageTwo = togglePick(fromPageOne, monday);
    expect(withPageTwo.map((one) => one.id)).toEqual(["fri", "mon"]);
    expect(comparisonPair(withPageTwo)).toEqual({ a: "mon", b: "fri" });
  });

  it("unpicks a picked one, lets the first go at a third pick, and has no pair with fewer than two", () => {
    expect(comparisonPair(togglePick([monday, tuesday], tuesday))).toBeNull();
    expect(togglePick([monday, tuesday], friday).map((one) => one.id)).toEqual(["tue", "fri"]);
    expect(comparisonPair([])).toBeNull();
  });
});
