import { Environment, EvaluationBudgetExceeded, setPatternCompiler, withEvaluationBudget } from "@marcbachmann/cel-js";
import { compileUserPattern } from "../patterns/user-pattern.js";
import { DEFAULT_RUN_LIMITS, formatBytes, limitError, type RunLimits } from "../limits/run-limits.js";
import { WeftError } from "../model/errors.js";
import type { JsonValue } from "../model/json-value.js";

/**
 * Conditions and item lists are CEL (SPEC-V2 §2), through `@marcbachmann/cel-js`: an interpreter (no
 * code generation, so an expression can never run JavaScript), type-checked when compiled, with error
 * offsets for the editor. Chosen over `@bufbuild/cel` by the `cel` benchmark (docs/benchmarks.md).
 *
 * Variables: `input`, `inputs`, `state`, `loops` (CEL reserves the word `loop`, so SPEC-V2's `loop`
 * is spelled `loops`), `run`, and inside map bodies `item` and `index`. JSON numbers are CEL doubles;
 * `index`, `loops.<id>.iteration` and `.max` are ints.
 */

export type ExpressionScope = "graph" | "body";

export interface ExpressionVariables {
  input: JsonValue;
  inputs: Readonly<Record<string, JsonValue>>;
  state: Readonly<Record<string, JsonValue>>;
  loops: Readonly<Record<string, { iteration: number; max: number }>>;
  run: { inputs: Readonly<Record<string, JsonValue>> };
  item?: JsonValue;
  index?: number;
}

/** The limits an evaluation keeps to: its cost budget, and the gate's depth and size for its result. */
export type ExpressionLimits = Pick<RunLimits, "maxExpressionCost" | "maxValueDepth" | "maxNodeOutputBytes">;

export type CompiledExpression = (variables: ExpressionVariables, limits?: ExpressionLimits) => JsonValue;

export type CompileResult = { ok: true; evaluate: CompiledExpression } | { ok: false; message: string; position: number };

/** Shared with the other CEL environments (trigger-expression.ts). */
export const LIMITS = { maxAstNodes: 2_000, maxDepth: 64, maxListElements: 1_000, maxMapEntries: 1_000, maxCallArguments: 32 };

function environment(scope: ExpressionScope): Environment {
  const env = new Environment({ homogeneousAggregateLiterals: false, limits: LIMITS })
    .registerVariable("input", "dyn")
    .registerVariable("inputs", "map")
    .registerVariable("state", "map")
    .registerVariable("loops", "map")
    .registerVariable("run", "map");
  if (scope === "body") env.registerVariable("item", "dyn").registerVariable("index", "int");
  return env;
}

const ENVIRONMENTS: Record<ExpressionScope, Environment> = { graph: environment("graph"), body: environment("body") };

// CEL `matches()` through the linear-time engine (patched into cel-js).
setPatternCompiler((pattern) => compileUserPattern(pattern));

/**
 * The patterns an expression passes to `matches()` as literals, for PATTERN_INVALID at edit time (a
 * pattern computed at run time is checked when it runs). Empty when the expression does not parse.
 */
export function literalPatterns(source: string, scope: ExpressionScope = "graph"): string[] {
  let ast: unknown;
  try {
    ast = ENVIRONMENTS[scope].parse(source).ast;
  } catch {
    return [];
  }
  const found: string[] = [];
  const work: unknown[] = [ast];
  while (work.length > 0) {
    const node = work.pop();
    if (node === null || typeof node !== "object") continue;
    const { op, args } = node as { op?: unknown; args?: unknown };
    if (op === "rcall" && Array.isArray(args) && args[0] === "matches" && Array.isArray(args[2])) {
      const literal = args[2][0] as { op?: unknown; args?: unknown } | undefined;
      if (literal?.op === "value" && typeof literal.args === "string") found.push(literal.args);
    }
    if (Array.isArray(args)) work.push(...args.flat());
    else if (args && typeof args === "object") work.push(args);
  }
  return found;
}

/**
 * Compiled programs by scope and source, so validating a graph again (every edit, every run) does not
 * compile its expressions again. Bounded: cleared when full.
 */
const compiled = new Map<string, CompileResult>();
const MAX_CACHED = 10_000;

/** Parses and type-checks an expression once; the result evaluates it any number of times. */
export function compileExpression(source: string, scope: ExpressionScope = "graph"): CompileResult {
  const key = `${scope}:${source}`;
  const cached = compiled.get(key);
  if (cached) return cached;
  const result = compileUncached(source, scope);
  if (compiled.size >= MAX_CACHED) compiled.clear();
  compiled.set(key, result);
  return result;
}

function compileUncached(source: string, scope: ExpressionScope): CompileResult {
  const env = ENVIRONMENTS[scope];
  let program: ReturnType<Environment["parse"]>;
  try {
    program = env.parse(source);
  } catch (error) {
    return failure(error);
  }
  const checked = program.check();
  if (!checked.valid) return failure(checked.error);
  return {
    ok: true,
    evaluate: (variables, limits = DEFAULT_RUN_LIMITS) =>
      fromCel(
        withEvaluationBudget(limits.maxExpressionCost, () => program(toCelVariables(variables))),
        limits,
      ),
  };
}

export function failure(error: unknown): { ok: false; message: string; position: number } {
  const cel = error as { summary?: unknown; range?: { start?: unknown }; node?: { pos?: unknown }; message?: unknown };
  const message = typeof cel.summary === "string" ? cel.summary : error instanceof Error ? error.message : String(error);
  const start = cel.range?.start ?? cel.node?.pos;
  return { ok: false, message, position: typeof start === "number" ? start : 0 };
}

function toCelVariables(variables: ExpressionVariables): Record<string, unknown> {
  const loops: Record<string, { iteration: bigint; max: bigint }> = {};
  for (const [id, info] of Object.entries(variables.loops)) loops[id] = { iteration: BigInt(info.iteration), max: BigInt(info.max) };
  const bound: Record<string, unknown> = { ...variables, loops };
  if (variables.index !== undefined) bound.index = BigInt(variables.index);
  return bound;
}

/**
 * CEL value → JSON: ints become numbers, maps become objects. What JSON cannot hold (bytes, timestamps,
 * durations, optionals…) is refused with VALUE_NOT_JSON, never converted (SPEC-V3 §1), and the result
 * passes the value gate's depth and size as it is built: an explicit stack, no recursion, so a value a
 * hostile expression nested thousands deep is refused instead of overflowing the stack.
 */
export function fromCel(value: unknown, limits: Pick<RunLimits, "maxValueDepth" | "maxNodeOutputBytes"> = DEFAULT_RUN_LIMITS): JsonValue {
  const root: { value: JsonValue } = { value: null };
  const work: Array<{ value: unknown; depth: number; put: (converted: JsonValue) => void }> = [{ value, depth: 0, put: (converted) => (root.value = converted) }];
  let size = 0;
  while (work.length > 0) {
    const { value: current, depth, put } = work.pop()!;
    const scalar = celScalar(current);
    if (scalar !== NOT_SCALAR) {
      size += typeof scalar === "string" ? scalar.length : 4;
      if (size > limits.maxNodeOutputBytes) throw limitError("OUTPUT_TOO_LARGE", `the expression's value is larger than ${formatBytes(limits.maxNodeOutputBytes)}`);
      put(scalar);
      continue;
    }
    if (depth + 1 > limits.maxValueDepth) throw limitError("VALUE_TOO_DEEP", `the expression's value is nested deeper than ${limits.maxValueDepth} levels`);
    const entries = celEntries(current);
    const container: JsonValue[] | Record<string, JsonValue> = entries.list ? [] : {};
    put(container);
    entries.items.forEach(([key, item], index) => {
      size += 1;
      work.push({ value: item, depth: depth + 1, put: (converted) => (Array.isArray(container) ? (container[index] = converted) : (container[key] = converted)) });
    });
  }
  return root.value;
}

const NOT_SCALAR = Symbol("container");

function celScalar(value: unknown): JsonValue | typeof NOT_SCALAR {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : notJson(`the number ${value}`);
  if (typeof value === "bigint") return Number(value);
  if (Array.isArray(value) || value instanceof Map || value instanceof Set) return NOT_SCALAR;
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) return NOT_SCALAR;
  // An unsigned int is a number; bytes (Uint8Array), timestamps (Date), durations and the rest are not JSON.
  if (typeof value === "object" && value.constructor?.name === "UnsignedInt") return Number(value.valueOf());
  const kind = value instanceof Uint8Array ? "bytes" : value instanceof Date ? "a timestamp" : typeof value === "object" && value.constructor?.name === "Duration" ? "a duration" : `a value of type ${typeof value === "object" ? (value.constructor?.name ?? "object") : typeof value}`;
  return notJson(kind);
}

function celEntries(value: unknown): { list: boolean; items: Array<[string, unknown]> } {
  if (Array.isArray(value)) return { list: true, items: value.map((item, index) => [String(index), item]) };
  if (value instanceof Set) return { list: true, items: [...value].map((item, index) => [String(index), item]) };
  if (value instanceof Map) return { list: false, items: [...value].map(([key, item]) => [String(key), item]) };
  return { list: false, items: Object.entries(value as object) };
}

function notJson(what: string): never {
  throw limitError("VALUE_NOT_JSON", `the expression produced ${what}, which JSON cannot hold`);
}

/** Runs a compiled expression, turning CEL's evaluation errors into EXPRESSION_FAILED with the field. */
export function evaluateExpression<V = ExpressionVariables>(
  evaluate: (variables: V, limits: ExpressionLimits) => JsonValue,
  variables: V,
  where: string,
  limits: ExpressionLimits = DEFAULT_RUN_LIMITS,
): JsonValue {
  try {
    return evaluate(variables, limits);
  } catch (error) {
    if (error instanceof WeftError) throw new WeftError(error.code, `${where}: ${error.message}`, { audience: error.audience, cause: error });
    if (error instanceof EvaluationBudgetExceeded) {
      throw limitError("EXPRESSION_BUDGET_EXCEEDED", `${where}: the evaluation passed its budget of ${limits.maxExpressionCost} cost units (WEFT_MAX_EXPRESSION_COST)`);
    }
    const cel = error as { summary?: unknown };
    const reason = typeof cel.summary === "string" ? cel.summary : error instanceof Error ? error.message : String(error);
    throw new WeftError("EXPRESSION_FAILED", `${where}: ${reason}`, { cause: error });
  }
}
