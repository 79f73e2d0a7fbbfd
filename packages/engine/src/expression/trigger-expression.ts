import { Environment, withEvaluationBudget } from "@marcbachmann/cel-js";
import { DEFAULT_RUN_LIMITS } from "../limits/run-limits.js";
import type { JsonValue } from "../model/json-value.js";
import { evaluateExpression, failure, fromCel, LIMITS, type ExpressionLimits } from "./cel-expression.js";

/**
 * The CEL a trigger maps its request to a run's inputs with (SPEC-V3 §5): variables `body` (the parsed
 * JSON body, or its text), `headers` (lower-case names) and `query` (the URL's parameters). Same
 * interpreter, parse limits, evaluation budget and result gate as the graph's expressions (cel-expression.ts).
 */
export interface TriggerVariables {
  body: JsonValue;
  headers: Readonly<Record<string, string>>;
  query: Readonly<Record<string, string>>;
}

export type CompiledTriggerExpression = (variables: TriggerVariables, limits: ExpressionLimits) => JsonValue;

export type TriggerCompileResult = { ok: true; evaluate: CompiledTriggerExpression } | { ok: false; message: string; position: number };

const ENVIRONMENT = new Environment({ homogeneousAggregateLiterals: false, limits: LIMITS })
  .registerVariable("body", "dyn")
  .registerVariable("headers", "map")
  .registerVariable("query", "map");

/** Compiled mappings by source, so each call of a webhook does not compile them again. Bounded: cleared when full. */
const compiled = new Map<string, TriggerCompileResult>();
const MAX_CACHED = 10_000;

export function compileTriggerExpression(source: string): TriggerCompileResult {
  const cached = compiled.get(source);
  if (cached) return cached;
  const result = compileUncached(source);
  if (compiled.size >= MAX_CACHED) compiled.clear();
  compiled.set(source, result);
  return result;
}

function compileUncached(source: string): TriggerCompileResult {
  let program: ReturnType<Environment["parse"]>;
  try {
    program = ENVIRONMENT.parse(source);
  } catch (error) {
    return failure(error);
  }
  const checked = program.check();
  if (!checked.valid) return failure(checked.error);
  return { ok: true, evaluate: (variables, limits) => fromCel(withEvaluationBudget(limits.maxExpressionCost, () => program(variables)), limits) };
}

/**
 * Runs a compiled mapping within `limits` (WEFT_MAX_EXPRESSION_COST → EXPRESSION_BUDGET_EXCEEDED, the
 * value gate's depth and size); CEL's evaluation errors become EXPRESSION_FAILED naming `where`.
 */
export function evaluateTriggerExpression(evaluate: CompiledTriggerExpression, variables: TriggerVariables, where: string, limits: ExpressionLimits = DEFAULT_RUN_LIMITS): JsonValue {
  return evaluateExpression(evaluate, variables, where, limits);
}
