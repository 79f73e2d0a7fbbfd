import { isAbortError, WeftError } from "../model/errors.js";
import { addUsage, emptyUsage, type TokenUsage } from "../providers/llm-provider.js";
import { scorerThreshold, type ScorerSpec } from "./scorer-spec.js";
import type { ScorerType } from "./scorer-types.js";
import { containsScorer } from "./scorers/contains.scorer.js";
import { exactScorer } from "./scorers/exact.scorer.js";
import { jsonSchemaScorer } from "./scorers/json-schema.scorer.js";
import { judgeScorer } from "./scorers/judge.scorer.js";
import { regexScorer } from "./scorers/regex.scorer.js";
import type { Score, Scorer, ScoringCase, ScoringContext } from "./scorers/scorer.js";
import { similarityScorer } from "./scorers/similarity.scorer.js";

const SCORERS: { [T in ScorerType]: Scorer<Extract<ScorerSpec, { type: T }>> } = {
  exact: exactScorer,
  contains: containsScorer,
  regex: regexScorer,
  json_schema: jsonSchemaScorer,
  similarity: similarityScorer,
  judge: judgeScorer,
};

/** A reason is for people: long ones (a judge's essay) are cut here. */
export const MAX_REASON_LENGTH = 2_000;

export interface CaseScores {
  scores: Score[];
  /** Tokens the scorers spent (judges). */
  usage: TokenUsage;
}

/**
 * Every scorer's verdict on one row, in the scorers' order. A run that did not complete scores 0 on
 * every scorer (`runError` says why). A scorer that fails (a judge's provider down, a reply that stayed
 * unusable after its repair) scores 0 with its error as the reason: one row's scoring never stops an
 * experiment. An abort is thrown.
 */
export async function scoreCase(specs: readonly ScorerSpec[], scoringCase: ScoringCase, context: ScoringContext, runError: { code: string; message: string } | null = null): Promise<CaseScores> {
  let usage = emptyUsage();
  const output = scoringCase.output;
  if (output === null) {
    const why = runError ? `the run did not complete (${runError.code}): ${runError.message}` : "the run has no output";
    return { scores: specs.map((spec) => verdict(spec, 0, why)), usage };
  }
  const scores = await Promise.all(
    specs.map(async (spec) => {
      try {
        const scorer = SCORERS[spec.type] as Scorer;
        const result = await scorer(spec, { ...scoringCase, output }, context);
        usage = addUsage(usage, result.usage ?? null);
        return verdict(spec, result.score, result.reason);
      } catch (error) {
        if (isAbortError(error) || context.signal.aborted) throw error;
        const code = error instanceof WeftError ? error.code : "SCORER_FAILED";
        return verdict(spec, 0, `the scorer failed (${code}): ${error instanceof Error ? error.message : String(error)}`);
      }
    }),
  );
  return { scores, usage };
}

function verdict(spec: ScorerSpec, score: number, reason: string): Score {
  const bounded = Number.isFinite(score) ? Math.max(0, Math.min(1, score)) : 0;
  return { scorer: spec.id, score: bounded, pass: bounded >= scorerThreshold(spec), reason: reason.length > MAX_REASON_LENGTH ? `${reason.slice(0, MAX_REASON_LENGTH)}…` : reason };
}
