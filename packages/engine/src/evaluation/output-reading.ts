import { jsonTextDepth } from "../limits/json-text-depth.js";
import type { JsonValue } from "../model/json-value.js";
import { isJsonObject } from "../model/json-value.js";

/**
 * How a run's final output is compared with a row's `expected` (SPEC-V3 §4): text as text, JSON as JSON.
 * An expected string compares with the output's text; any other expected value (a number, a list, an
 * object…) with the output parsed as JSON, keys in any order. An expected `null` means the row has none.
 */
export type OutputReading =
  | { kind: "text"; output: string; expected: string }
  | { kind: "json"; output: JsonValue; expected: JsonValue }
  | { kind: "unusable"; reason: string };

export function readOutput(output: string, expected: JsonValue, maxDepth: number): OutputReading {
  if (expected === null) return { kind: "unusable", reason: "the row has no expected value" };
  if (typeof expected === "string") return { kind: "text", output, expected };
  const parsed = parseOutputJson(output, maxDepth);
  if (!parsed.ok) return { kind: "unusable", reason: `${parsed.reason}, and the expected value is JSON` };
  return { kind: "json", output: parsed.value, expected };
}

export function parseOutputJson(output: string, maxDepth: number): { ok: true; value: JsonValue } | { ok: false; reason: string } {
  if (jsonTextDepth(output, maxDepth) > maxDepth) return { ok: false, reason: `the output nests deeper than ${maxDepth} levels` };
  try {
    return { ok: true, value: JSON.parse(output) as JsonValue };
  } catch {
    return { ok: false, reason: "the output is not JSON" };
  }
}

/** JSON with object keys sorted: one text per value, whatever order its keys were written in. Values here are depth-limited. */
export function canonicalJson(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isJsonObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key]!)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** Comparisons one jsonContains may make: a list searched in a list costs the product of their lengths. */
export const JSON_CONTAINS_BUDGET = 1_000_000;

/**
 * Whether `part` is found in `whole`: equal scalars; an object whose every key of `part` holds a value
 * containing part's; a list whose every item of `part` is contained by some item of `whole`. Null when
 * deciding it would take more than `budget` comparisons (large lists of large lists): the values come
 * from a dataset and a run's output, so the scorer's time has a bound like an expression's.
 */
export function jsonContains(whole: JsonValue, part: JsonValue, budget = JSON_CONTAINS_BUDGET): boolean | null {
  let left = budget;
  const contains = (inWhole: JsonValue, inPart: JsonValue): boolean => {
    if ((left -= 1) < 0) throw OVER_BUDGET;
    if (Array.isArray(inPart)) return Array.isArray(inWhole) && inPart.every((item) => inWhole.some((candidate) => contains(candidate, item)));
    if (isJsonObject(inPart)) return isJsonObject(inWhole) && Object.keys(inPart).every((key) => Object.hasOwn(inWhole, key) && contains(inWhole[key]!, inPart[key]!));
    return inWhole === inPart;
  };
  try {
    return contains(whole, part);
  } catch (error) {
    if (error === OVER_BUDGET) return null;
    throw error;
  }
}

const OVER_BUDGET = Symbol("over budget");

/** A value as the text it is compared as: a string itself, anything else its canonical JSON. */
export function comparableText(value: JsonValue): string {
  return typeof value === "string" ? value : canonicalJson(value);
}

/** A short quotation of a text for a reason. */
export function quote(text: string, max = 80): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}
