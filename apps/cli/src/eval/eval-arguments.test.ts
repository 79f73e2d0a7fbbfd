import { describe, expect, it } from "vitest";
import { minimumOf, readMinimums, readScorers } from "./eval-arguments.js";

describe("readScorers", () => {
  it("takes a type alone as id and type, a JSON object as given, and the file's list first", () => {
    const file = JSON.stringify([{ id: "grade", type: "judge", rubric: "r" }, { type: "contains" }]);
    expect(readScorers(["exact", '{"id": "strict", "type": "exact", "trim": false}'], file)).toEqual([
      { id: "grade", type: "judge", rubric: "r" },
      { id: "contains", type: "contains" },
      { id: "exact", type: "exact" },
      { id: "strict", type: "exact", trim: false },
    ]);
  });

  it("refuses no scorer, more than 20, a word that is no type, JSON that is no object and a file that is no list", () => {
    expect(() => readScorers([], undefined)).toThrow("at least one scorer");
    expect(() => readScorers(Array.from({ length: 21 }, () => "exact"), undefined)).toThrow("at most 20 scorers");
    expect(() => readScorers(["exact match"], undefined)).toThrow("give a scorer type");
    expect(() => readScorers(['{"id": "x"}'], undefined)).toThrow('a scorer needs a "type"');
    expect(() => readScorers(["{nope"], undefined)).toThrow("not JSON");
    expect(() => readScorers([], '{"id": "x", "type": "exact"}', "scorers.json")).toThrow("scorers.json must hold a JSON list");
  });
});

describe("readMinimums", () => {
  const scorers = [
    { id: "exact", type: "exact" },
    { id: "grade", type: "judge" },
  ];

  it("reads a general rate and a scorer's own, as a share or a percentage; the scorer's own wins", () => {
    const minimums = readMinimums(["0.8", "grade=95%"], scorers);
    expect(minimums).toEqual([
      { scorer: null, rate: 0.8 },
      { scorer: "grade", rate: 0.95 },
    ]);
    expect(minimumOf("grade", minimums)).toBe(0.95);
    expect(minimumOf("exact", minimums)).toBe(0.8);
    expect(minimumOf("exact", [])).toBeNull();
  });

  it("refuses an unknown scorer and a rate outside 0..1", () => {
    expect(() => readMinimums(["fuzzy=0.5"], scorers)).toThrow('no scorer "fuzzy" (scorers: exact, grade)');
    for (const text of ["1.5", "-0.1", "150%", "", "exact=", "abc", "%"]) expect(() => readMinimums([text], scorers)).toThrow("a share of rows from 0 to 1");
  });
});
