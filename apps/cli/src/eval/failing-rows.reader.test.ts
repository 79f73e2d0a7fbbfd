import { describe, expect, it } from "vitest";
import { contiguousGroups } from "./failing-rows.reader.js";

/** A failing row at `position` of a dataset whose cursors are "c<position>". */
const at = (position: number) => ({ after: position === 1 ? null : `c${position - 1}`, cursor: `c${position}` });

describe("contiguousGroups", () => {
  it("reads rows next to each other in one request, at most four, and a row after a gap in another", () => {
    //  rows: 1 2 3 4 5 6 . . 9 . 11
    //        [1 2 3 4][5 6]  [9] [11]
    const groups = contiguousGroups([1, 2, 3, 4, 5, 6, 9, 11].map(at));
    expect(groups.map((group) => group.map((row) => row.cursor))).toEqual([["c1", "c2", "c3", "c4"], ["c5", "c6"], ["c9"], ["c11"]]);
    expect(groups.map((group) => group[0]!.after)).toEqual([null, "c4", "c8", "c10"]);
  });

  it("has no group for no failing row", () => {
    expect(contiguousGroups([])).toEqual([]);
  });
});
