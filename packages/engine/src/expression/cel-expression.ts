import { Environment } from "@marcbachmann/cel-js";
import { WeftError } from "../model/errors.js";
import { isJsonObject, type JsonValue } from "../model/json-value.js";

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

export type CompiledExpression = (variables: ExpressionVariables) => JsonValue;

export type CompileResult = { ok: true; evaluate: CompiledExpression } | { ok: false; message: string; position: number };

const LIMITS = { maxAstNodes: 2_000, maxDepth: 64, maxListElements: 1_000, maxMapEntries: 1_000, maxCallArguments: 32 };

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
  return { ok: true, evaluate: (variables) => fromCel(program(toCelVariables(variables))) };
}

function failure(error: unknown): { ok: false; message: string; position: number } {
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

/** CEL value → JSON: ints become numbers, maps become objects; what JSON cannot hold is refused. */
export function fromCel(value: unknown): JsonValue {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : notJson(`the number ${value}`);
  if (typeof value === "bigint") return Number(value);
  if (Array.isArray(value)) return value.map(fromCel);
  if (value instanceof Map) {
    const object: Record<string, JsonValue> = {};
    for (const [key, item] of value) object[String(key)] = fromCel(item);
    return object;
  }
  if (value instanceof Set) return [...value].map(fromCel);
  if (typeof value === "object" && "valueOf" in value && typeof value.valueOf() === "bigint") return Number(value.valueOf());
  if (isJsonObject(value as JsonValue)) {
    const object: Record<string, JsonValue> = {};
    for (const [key, item] of Object.entries(value as object)) object[key] = fromCel(item);
    return object;
  }
  return notJson(`a value of type ${typeof value}`);
}

function notJson(what: string): never {
  throw new WeftError("EXPRESSION_FAILED", `the expression produced ${what}, which is not a JSON value`);
}

/** Runs a compiled expression, turning CEL's evaluation errors into EXPRESSION_FAILED with the field. */
export function evaluateExpression(evaluate: CompiledExpression, variables: ExpressionVariables, where: string): JsonValue {
  try {
    return evaluate(variables);
  } catch (error) {
    if (error instanceof WeftError) throw error;
    const cel = error as { summary?: unknown };
    const reason = typeof cel.summary === "string" ? cel.summary : error instanceof Error ? error.message : String(error);
    throw new WeftError("EXPRESSION_FAILED", `${where}: ${reason}`, { cause: error });
  }
}
