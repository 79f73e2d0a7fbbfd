import { compileUserPattern } from "../../patterns/user-pattern.js";
import type { RegexScorerSpec } from "../scorer-spec.js";
import type { Scorer } from "./scorer.js";

/** 1 when the pattern (RE2 syntax, matched in linear time: never V8's RegExp) finds the output's text, else 0. */
export const regexScorer: Scorer<RegexScorerSpec> = (spec, { output }) => {
  const found = compileUserPattern(spec.pattern, { ignoreCase: spec.ignoreCase ?? false }).test(output);
  return { score: found ? 1 : 0, reason: found ? "" : `the output does not match /${spec.pattern}/` };
};
