import { describe, expect, test } from "vitest";
import { WeftError } from "../model/errors.js";
import { compileTriggerExpression, evaluateTriggerExpression } from "./trigger-expression.js";

const request = { body: { order: { id: 42, items: ["a", "b"] } }, headers: { "x-source": "shop" }, query: { lang: "ko" } };

function evaluate(source: string) {
  const compiled = compileTriggerExpression(source);
  if (!compiled.ok) throw new Error(compiled.message);
  return evaluateTriggerExpression(compiled.evaluate, request, "inputs[0].from");
}

describe("trigger expressions", () => {
  test("read the body, the headers and the query", () => {
    expect(evaluate("body.order.id")).toBe(42);
    expect(evaluate("headers['x-source'] + ':' + query.lang")).toBe("shop:ko");
    expect(evaluate("body.order.items.size()")).toBe(2);
  });

  test("an unknown variable is refused when compiled, with its position", () => {
    const compiled = compileTriggerExpression("input.text");
    expect(compiled.ok).toBe(false);
    if (!compiled.ok) expect(compiled.position).toBe(0);
  });

  test("an evaluation past its cost budget is refused with EXPRESSION_BUDGET_EXCEEDED", () => {
    const compiled = compileTriggerExpression("body.order.items.map(x, body.order.items.map(y, x + y)).size()");
    if (!compiled.ok) throw new Error(compiled.message);
    const limits = { maxExpressionCost: 5, maxValueDepth: 64, maxNodeOutputBytes: 1_000_000 };
    expect(() => evaluateTriggerExpression(compiled.evaluate, request, "inputs[0].from", limits)).toThrow(expect.objectContaining({ code: "EXPRESSION_BUDGET_EXCEEDED" }) as WeftError);
  });

  test("a missing field fails the evaluation with EXPRESSION_FAILED naming the field", () => {
    expect(() => evaluate("body.customer.name")).toThrow(WeftError);
    try {
      evaluate("body.customer.name");
    } catch (error) {
      expect((error as WeftError).code).toBe("EXPRESSION_FAILED");
      expect((error as WeftError).message).toMatch(/^inputs\[0\]\.from: /);
    }
  });
});
