import { describe, expect, it } from "vitest";
import { DEFAULT_RUN_LIMITS } from "../limits/run-limits.js";
import { compileExpression, evaluateExpression, fromCel, type ExpressionVariables } from "./cel-expression.js";

const VARIABLES: ExpressionVariables = { input: "x", inputs: {}, state: {}, loops: {}, run: { inputs: {} } };
const list = (size: number) => `[${Array.from({ length: size }, (_, k) => k).join(", ")}]`;

function evaluate(source: string, variables: ExpressionVariables = VARIABLES, limits = DEFAULT_RUN_LIMITS) {
  const compiled = compileExpression(source);
  if (!compiled.ok) throw new Error(compiled.message);
  return evaluateExpression(compiled.evaluate, variables, "when", limits);
}

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}

describe("the CEL evaluation budget (WEFT_MAX_EXPRESSION_COST)", () => {
  it("stops five nested maps over 60 items (a heap bomb of 777 million items) with EXPRESSION_BUDGET_EXCEEDED", () => {
    const items = list(60);
    const source = `${items}.map(a, ${items}.map(b, ${items}.map(c, ${items}.map(d, ${items}.map(e, a + b + c + d + e)))))`;
    expect(codeOf(() => evaluate(source))).toBe("EXPRESSION_BUDGET_EXCEEDED");
  });

  it("stops four nested all()s over 100 items, which || and the quantifiers cannot absorb", () => {
    const items = list(100);
    const source = `${items}.all(a, ${items}.all(b, ${items}.all(c, ${items}.all(d, a + b + c + d >= 0))))`;
    expect(codeOf(() => evaluate(source))).toBe("EXPRESSION_BUDGET_EXCEEDED");
    expect(codeOf(() => evaluate(`false || ${source}`))).toBe("EXPRESSION_BUDGET_EXCEEDED");
  });

  it("counts the strings a concatenation builds and the elements a comparison visits", () => {
    const big = { ...VARIABLES, input: "y".repeat(100_000) };
    expect(codeOf(() => evaluate(`${list(20)}.all(k, size(input + input) > 0)`, big))).toBe("EXPRESSION_BUDGET_EXCEEDED");
    const numbers = () => Array.from({ length: 50_000 }, (_, k) => k);
    const wide = { ...VARIABLES, input: numbers(), state: { copy: numbers() } };
    expect(codeOf(() => evaluate(`${list(30)}.all(k, input == state.copy)`, wide))).toBe("EXPRESSION_BUDGET_EXCEEDED");
  });

  it("leaves ordinary conditions far below the budget", () => {
    expect(evaluate(`size(input) < 12 && ${list(1000)}.exists(k, k == 999)`)).toBe(true);
    expect(evaluate(`${list(1000)}.map(k, k * 2).filter(k, k > 1990)`)).toEqual([1992, 1994, 1996, 1998]);
  });

  it("honours a lower budget", () => {
    expect(codeOf(() => evaluate(`${list(1000)}.all(k, k >= 0)`, VARIABLES, { ...DEFAULT_RUN_LIMITS, maxExpressionCost: 500 }))).toBe("EXPRESSION_BUDGET_EXCEEDED");
  });
});

describe("CEL values JSON cannot hold (VALUE_NOT_JSON)", () => {
  it.each([
    ["bytes", 'b"abc"'],
    ["a timestamp", 'timestamp("2026-01-01T00:00:00Z")'],
    ["a duration", 'duration("1s")'],
    ["bytes inside a list", '[1, b"a"]'],
  ])("refuses %s instead of converting it", (_what, source) => {
    expect(codeOf(() => evaluate(source))).toBe("VALUE_NOT_JSON");
  });

  it("still converts ints, maps and nested lists", () => {
    expect(evaluate('{"a": [1, 2u, {"b": null}]}')).toEqual({ a: [1, 2, { b: null }] });
  });

  it("refuses a result nested deeper than the value depth, without recursion", () => {
    let deep: unknown = 1;
    for (let level = 0; level < 100_000; level += 1) deep = [deep];
    expect(codeOf(() => fromCel(deep))).toBe("VALUE_TOO_DEEP");
  });
});
