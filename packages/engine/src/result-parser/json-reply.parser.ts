import { jsonTextDepth, tooDeep } from "../limits/json-text-depth.js";
import { DEFAULT_RUN_LIMITS } from "../limits/run-limits.js";
import type { JsonValue } from "../model/json-value.js";
import { findBalancedObjects } from "./json-object-scanner.js";
import { ResultParseError } from "./result-parse.error.js";

const FENCED_BLOCK = /```[ \t]*(?:json|JSON)?[ \t]*\r?\n?([\s\S]*?)```/g;

/**
 * The JSON value in a model's reply, tolerating what models really send, as the ResultParser does: the
 * value alone, inside a fenced ```json block, or one object with prose around it. Several different
 * candidates, or none, are refused rather than guessed.
 */
export function parseJsonReply(reply: string, maxDepth: number = DEFAULT_RUN_LIMITS.maxValueDepth): JsonValue {
  const trimmed = reply.trim();
  if (trimmed === "") throw new ResultParseError("the reply is empty", reply);
  const tryParse = (text: string) => tryParseWithin(text, maxDepth);
  const whole = tryParse(trimmed);
  if (whole.ok) return whole.value;
  const fenced = [...reply.matchAll(FENCED_BLOCK)].map((match) => tryParse((match[1] ?? "").trim())).filter((result) => result.ok);
  const candidates = fenced.length > 0 ? fenced : findBalancedObjects(reply).map(tryParse).filter((result) => result.ok);
  const distinct = new Map(candidates.map((candidate) => [JSON.stringify(candidate.value), candidate.value]));
  if (distinct.size === 1) return [...distinct.values()][0]!;
  if (distinct.size === 0) throw new ResultParseError("no JSON value was found", reply);
  throw new ResultParseError(`the reply holds ${distinct.size} different JSON values; expected exactly one`, reply);
}

/** A candidate nested deeper than the limit is refused (VALUE_TOO_DEEP, not a parse error to repair) before it is built. */
function tryParseWithin(text: string, maxDepth: number): { ok: true; value: JsonValue } | { ok: false } {
  if (jsonTextDepth(text, maxDepth) > maxDepth) throw tooDeep("the model's reply", maxDepth);
  try {
    return { ok: true, value: JSON.parse(text) as JsonValue };
  } catch {
    return { ok: false };
  }
}
