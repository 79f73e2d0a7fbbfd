import type { Sleep } from "../../model/abortable-sleep.js";
import type { JsonValue } from "../../model/json-value.js";
import type { RetryOptions } from "../../execute/retry-policy.js";
import type { LlmProviders, TokenUsage } from "../../providers/llm-provider.js";
import type { Embedder } from "../../providers/retrieval.js";
import type { DatasetRowInput } from "../dataset-row.js";
import type { ScorerSpec } from "../scorer-spec.js";

/** What a scorer judges: one row's run. `output` is the run's final output; null when the run did not complete. */
export interface ScoringCase {
  output: string | null;
  expected: JsonValue;
  inputs: readonly DatasetRowInput[];
}

/** The I/O a scorer may need, injected by the host (the API, the command line). */
export interface ScoringContext {
  /** Configured model providers: a judge's `provider` is looked up here. */
  llm: LlmProviders;
  /** The configured embedder (WEFT_EMBEDDER): what `similarity` compares with; null when none is. */
  embedder: Embedder | null;
  signal: AbortSignal;
  /** WEFT_MAX_VALUE_DEPTH: outputs and replies read as JSON nest at most this deep. */
  maxValueDepth: number;
  /** WEFT_PARSE_REPAIR: a judge's reply that does not parse or match is asked for once more. */
  parseRepair: boolean;
  /** A judge's provider calls retry as node calls do (defaults: DEFAULT_RETRY_OPTIONS). */
  retry?: RetryOptions;
  sleep?: Sleep;
}

/** One scorer's verdict on one row (ExperimentResult.scores). */
export interface Score {
  scorer: string;
  /** In [0, 1]. */
  score: number;
  /** score ≥ the scorer's threshold. */
  pass: boolean;
  /** Why, for people: empty when there is nothing to say. */
  reason: string;
}

/** What one scorer says before its threshold is applied; `usage`: tokens a judge spent. */
export interface ScorerVerdict {
  score: number;
  reason: string;
  usage?: TokenUsage | null;
}

export type Scorer<S extends ScorerSpec = ScorerSpec> = (spec: S, scoringCase: ScoringCase & { output: string }, context: ScoringContext) => ScorerVerdict | Promise<ScorerVerdict>;
