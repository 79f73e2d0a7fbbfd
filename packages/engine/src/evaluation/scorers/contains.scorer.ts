import { canonicalJson, JSON_CONTAINS_BUDGET, jsonContains, quote, readOutput } from "../output-reading.js";
import type { ContainsScorerSpec } from "../scorer-spec.js";
import type { Scorer } from "./scorer.js";

/**
 * 1 when the output contains what is expected, else 0: `value` (text) when the scorer sets one, else
 * the row's expected value — text found in the output's text, or JSON found in the output's JSON (an
 * object's keys with their values, a list's items; jsonContains).
 */
export const containsScorer: Scorer<ContainsScorerSpec> = (spec, { output, expected }, context) => {
  const reading = readOutput(output, spec.value ?? expected, context.maxValueDepth);
  if (reading.kind === "unusable") return { score: 0, reason: reading.reason };
  if (reading.kind === "json") {
    const found = jsonContains(reading.output, reading.expected);
    if (found === null) return { score: 0, reason: `the output is too large to search for the expected value (over ${JSON_CONTAINS_BUDGET.toLocaleString("en")} comparisons)` };
    return { score: found ? 1 : 0, reason: found ? "" : `${quote(canonicalJson(reading.expected))} is not in the output` };
  }
  const haystack = spec.ignoreCase ? reading.output.toLowerCase() : reading.output;
  const needle = spec.ignoreCase ? reading.expected.toLowerCase() : reading.expected;
  const found = haystack.includes(needle);
  return { score: found ? 1 : 0, reason: found ? "" : `${quote(reading.expected)} is not in the output` };
};
