import { describe, expect, it } from "vitest";
import { celProblem, invalidCelPaths, problemLine } from "./cel-check";
import { shapeOf } from "./schema-shape";

describe("checking CEL as it is typed", () => {
  it("accepts a condition over the variables a node sees", () => {
    expect(celProblem('input.score >= 0.7 && state.tries < 3', "graph")).toBeNull();
    expect(celProblem("", "graph")).toBeNull();
  });

  it("says where an expression stops making sense", () => {
    const problem = celProblem("input.size( > 2", "graph");
    expect(problem).not.toBeNull();
    expect(problem!.position).toBeGreaterThan(5);
    expect(problem!.position).toBeLessThanOrEqual("input.size( > 2".length);
  });

  it("knows item and index only inside a map body", () => {
    expect(celProblem("item.question", "body")).toBeNull();
    expect(celProblem("item.question", "graph")).not.toBeNull();
  });

  it("finds the line and column of a position", () => {
    expect(problemLine("a &&\nb ||", 8)).toEqual({ line: "b ||", column: 3, lineNumber: 2 });
  });

  it("finds the CEL values of a config that do not compile, by their path", () => {
    const cases = shapeOf({
      type: "array",
      items: { type: "object", properties: { port: { type: "string" }, when: { type: "string", "x-weft-kind": "cel" } }, additionalProperties: false },
    });
    const fields = [{ name: "cases", shape: cases }];
    const config = { cases: [{ port: "short", when: "input.size() < 20" }, { port: "broken", when: "input.size( <" }] };
    expect(invalidCelPaths(fields, config, "graph")).toEqual(["cases[1].when"]);
  });
});
