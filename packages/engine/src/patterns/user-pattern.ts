import { RE2JS } from "re2js";
import { WeftError } from "../model/errors.js";

/**
 * Every regular expression a user writes (guardrail `patterns`, the scripted model's `params.match`,
 * JSON Schema `pattern` and `patternProperties`, CEL `matches()`, evaluation scorers) is compiled here,
 * by RE2JS: a pure-JavaScript port of RE2 that matches in time linear in the text, in Node and in the
 * browser alike. V8's own RegExp backtracks: `^(a+)+$` on 32 `a`s and a `!` held the API's thread for
 * 16 s. RE2 syntax has no backreferences and no lookaround; a pattern it cannot compile is refused
 * (PATTERN_INVALID) when the workflow is edited, with the field that holds it.
 */
export interface UserPattern {
  /** Whether the pattern matches anywhere in the text (as RegExp.prototype.test). */
  test(text: string): boolean;
}

export interface PatternOptions {
  ignoreCase?: boolean;
}

const compiled = new Map<string, UserPattern>();
const MAX_CACHED = 2_000;

/** The compiled pattern; throws WeftError PATTERN_INVALID when RE2 cannot take it. */
export function compileUserPattern(source: string, options: PatternOptions = {}): UserPattern {
  const key = `${options.ignoreCase ? "i" : "-"}${source}`;
  let pattern = compiled.get(key);
  if (!pattern) {
    try {
      pattern = RE2JS.compile(source, options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
    } catch (error) {
      throw new WeftError("PATTERN_INVALID", `not a pattern the linear-time engine (RE2 syntax) accepts: ${reasonOf(error)}`);
    }
    if (compiled.size >= MAX_CACHED) compiled.clear();
    compiled.set(key, pattern);
  }
  return pattern;
}

/** Why a pattern cannot be used, or null: for the rule checker and config forms. */
export function patternProblem(source: string): string | null {
  try {
    compileUserPattern(source);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^error parsing regexp: /, "");
}
