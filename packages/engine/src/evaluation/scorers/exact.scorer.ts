import { canonicalJson, quote, readOutput } from "../output-reading.js";
import type { ExactScorerSpec } from "../scorer-spec.js";
import type { Scorer } from "./scorer.js";

/**
 * 1 when the output equals the expected value, else 0. Text: trimmed unless `trim: false`, case kept
 * unless `ignoreCase`. JSON: equal values, object keys in any order.
 */
export const exactScorer: Scorer<ExactScorerSpec> = (spec, { output, expected }, context) => {
  const reading = readOutput(output, expected, context.maxValueDepth);
  if (reading.kind === "unusable") return { score: 0, reason: reading.reason };
  if (reading.kind === "json") {
    const same = canonicalJson(reading.output) === canonicalJson(reading.expected);
    return { score: same ? 1 : 0, reason: same ? "" : `expected ${quote(canonicalJson(reading.expected))}, got ${quote(canonicalJson(reading.output))}` };
  }
  const normalize = (text: string) => {
    const trimmed = spec.trim === false ? text : text.trim();
    return spec.ignoreCase ? trimmed.toLowerCase() : trimmed;
  };
  const same = normalize(reading.output) === normalize(reading.expected);
  return { score: same ? 1 : 0, reason: same ? "" : `expected ${quote(reading.expected)}, got ${quote(reading.output)}` };
};
