import { describe, expect, it } from "vitest";
import { addScorer, DEFAULT_SCORERS_TEXT, readScorerList, scorerIds } from "./scorer-list";

describe("the scorer list text", () => {
  it("reads the default list as one exact scorer", () => {
    expect(readScorerList(DEFAULT_SCORERS_TEXT)).toEqual({ ok: true, scorers: [{ id: "exact", type: "exact" }] });
  });

  it("says why a text is not a list of scorers", () => {
    expect(readScorerList("[{")).toMatchObject({ ok: false, problem: "notJson" });
    expect(readScorerList('{"id": "exact"}')).toEqual({ ok: false, problem: "notList" });
    expect(readScorerList("[]")).toEqual({ ok: false, problem: "empty" });
  });

  it("adds a type under a free id with the settings it needs", () => {
    const once = addScorer(DEFAULT_SCORERS_TEXT, "exact");
    const twice = addScorer(once, "judge");
    expect(JSON.parse(twice)).toEqual([
      { id: "exact", type: "exact" },
      { id: "exact-2", type: "exact" },
      { id: "judge", type: "judge", provider: "offline", model: "scripted", rubric: "", threshold: 0.7 },
    ]);
    expect(JSON.parse(addScorer("[]", "regex"))).toEqual([{ id: "regex", type: "regex", pattern: "" }]);
  });

  it("leaves a text that is not a list as the user wrote it", () => {
    expect(addScorer("[{ oops", "exact")).toBe("[{ oops");
  });

  it("lists the ids that are text, in order", () => {
    expect(scorerIds([{ id: "b" }, { id: 3 }, null, { id: "a" }])).toEqual(["b", "a"]);
    expect(scorerIds("not a list")).toEqual([]);
  });
});
