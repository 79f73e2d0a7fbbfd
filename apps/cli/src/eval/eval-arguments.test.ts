import { describe, expect, it } from "vitest";
import { SCORER_LIMITS, SCORER_TYPES } from "@weft/engine";
import { minimumOf, readMinimums, readScorers } from "./eval-arguments.js";

describe("readScorers", () => {
  it("takes a type alone as id and type, a JSON object as given, and the file's list first", () => {
    const file = JSON.stringify([{ id: "grade", type: "judge", provider: "offline", model: "scripted", rubric: "r" }, { type: "contains" }]);
    expect(readScorers(["exact", '{"id": "strict", "type": "exact", "trim": false}'], file)).toEqual([
      { id: "grade", type: "judge", provider: "offline", model: "scripted", rubric: "r" },
      { id: "contains", type: "contains" },
      { id: "exact", type: "exact" },
      { id: "strict", type: "exact", trim: false },
    ]);
  });

  it("refuses no scorer, more than the engine's limit, a word that is no type, JSON that is no object and a file that is no list", () => {
    expect(() => readScorers([], undefined)).toThrow("at least one scorer");
    expect(() => readScorers(Array.from({ length: SCORER_LIMITS.maxScorers + 1 }, () => "exact"), undefined)).toThrow(`LIMIT_EXCEEDED: the scorers: ${SCORER_LIMITS.maxScorers + 1} scorers; the limit is ${SCORER_LIMITS.maxScorers}`);
    expect(() => readScorers(["exact match"], undefined)).toThrow(`give a scorer type (${SCORER_TYPES.join(", ")})`);
    expect(() => readScorers(['{"id": "x"}'], undefined)).toThrow('VALIDATION_FAILED: --scorer {"id": "x"}.type:');
    expect(() => readScorers(["{nope"], undefined)).toThrow("not JSON");
    expect(() => readScorers([], '{"id": "x", "type": "exact"}', "scorers.json")).toThrow("scorers.json must hold a JSON list");
  });

  it("checks each scorer's settings as the API does and names every problem at once, with where it was given", () => {
    const file = JSON.stringify([{ id: "r", type: "regex", pattern: "(?<=x)" }, { type: "judge", rubric: "r" }]);
    let message = "";
    try {
      readScorers(["exact", "fuzzy", '{"type": "contains", "threshold": 2}', "exact"], file, "scorers.json");
    } catch (error) {
      message = (error as Error).message;
    }
    const lines = message.split("\n");
    expect(lines[0]).toMatch(/^\d+ problems with the scorers:$/);
    expect(lines).toContain(`  --scorer fuzzy: give a scorer type (${SCORER_TYPES.join(", ")}) or a scorer's JSON object`);
    expect(lines.some((line) => line.startsWith("  PATTERN_INVALID: scorers.json[0].pattern: "))).toBe(true);
    expect(lines.some((line) => line.startsWith("  VALIDATION_FAILED: scorers.json[1].provider: "))).toBe(true);
    expect(lines.some((line) => line.startsWith('  VALIDATION_FAILED: --scorer {"type": "contains", "threshold": 2}.threshold: '))).toBe(true);
    expect(lines).toContain('  VALIDATION_FAILED: --scorer exact.id: scorer id "exact" is used twice');
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
