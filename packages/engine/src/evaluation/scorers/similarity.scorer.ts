import { WeftError } from "../../model/errors.js";
import { comparableText } from "../output-reading.js";
import type { SimilarityScorerSpec } from "../scorer-spec.js";
import type { Scorer } from "./scorer.js";

/**
 * The cosine similarity of the output's and the expected value's embeddings (the configured embedder),
 * negative similarities counted as 0. Give it a threshold: only identical meaning scores 1.
 */
export const similarityScorer: Scorer<SimilarityScorerSpec> = async (_spec, { output, expected }, context) => {
  if (expected === null) return { score: 0, reason: "the row has no expected value" };
  if (!context.embedder) throw new WeftError("EMBEDDER_UNAVAILABLE", "no embedder is configured for the similarity scorer", { audience: "operational" });
  const [a, b] = await context.embedder.embed([output, comparableText(expected)], context.signal);
  const score = Math.max(0, Math.min(1, cosine(a ?? [], b ?? [])));
  return { score: round(score), reason: `cosine similarity ${round(score).toFixed(3)} (${context.embedder.model})` };
};

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let index = 0; index < a.length && index < b.length; index += 1) {
    dot += a[index]! * b[index]!;
    normA += a[index]! * a[index]!;
    normB += b[index]! * b[index]!;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

/** Six decimals: the same texts give the same score, whatever the floating-point noise of the sum. */
function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
