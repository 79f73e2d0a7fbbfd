import { describe, expect, test } from "vitest";
import { runResultValue } from "./run-result-value.js";

describe("a run's result as a value", () => {
  test("is the JSON it holds when it is an object or an array", () => {
    expect(runResultValue(' {"answer": 42}')).toEqual({ answer: 42 });
    expect(runResultValue("[1, 2]")).toEqual([1, 2]);
  });

  test("stays text when it is a JSON scalar, not JSON, or JSON that does not parse", () => {
    expect(runResultValue("42")).toBe("42");
    expect(runResultValue("true")).toBe("true");
    expect(runResultValue("Why is the sky blue?")).toBe("Why is the sky blue?");
    expect(runResultValue("{not json")).toBe("{not json");
  });

  test("is null for a run without a result", () => {
    expect(runResultValue(null)).toBeNull();
  });
});
