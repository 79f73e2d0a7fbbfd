import { GraphQLJSON } from "graphql-scalars";
import { Field, Float, ID, Int, ObjectType, registerEnumType } from "type-graphql";
import { MutationPayload } from "../../errors/user-error.type.js";
import { TEXT_COST } from "../common/field-cost.js";
import { connectionTypes } from "../common/pagination.js";

export const ExperimentStatusEnum = { RUNNING: "RUNNING", COMPLETED: "COMPLETED", CANCELLED: "CANCELLED", FAILED: "FAILED" } as const;
export type ExperimentStatus = keyof typeof ExperimentStatusEnum;
registerEnumType(ExperimentStatusEnum, {
  name: "ExperimentStatus",
  description: "RUNNING until every row has run and been scored (COMPLETED), cancelExperiment (CANCELLED), or the server stopped while it ran (FAILED).",
});

@ObjectType("Score", { description: "One scorer's verdict on one row: a score in [0, 1], pass at or above the scorer's threshold, and why." })
export class ScoreObject {
  @Field(() => String)
  scorer!: string;

  @Field(() => Float)
  score!: number;

  @Field(() => Boolean)
  pass!: boolean;

  @Field(() => String, { complexity: TEXT_COST })
  reason!: string;
}

@ObjectType("ScorerSummary")
export class ScorerSummaryObject {
  @Field(() => String)
  scorer!: string;

  @Field(() => Float, { nullable: true, description: "Mean score over the rows done (a run that did not complete scores 0); null before any." })
  mean!: number | null;

  @Field(() => Float, { nullable: true, description: "Share of the rows done that passed; null before any." })
  passRate!: number | null;
}

@ObjectType("ExperimentSummary")
export class ExperimentSummaryObject {
  @Field(() => Int, { description: "Rows the experiment runs." })
  rows!: number;

  @Field(() => Int, { description: "Rows whose run completed and was scored." })
  completed!: number;

  @Field(() => Int, { description: "Rows whose run failed, was cancelled or was refused (scored 0)." })
  failed!: number;

  @Field(() => [ScorerSummaryObject])
  scores!: ScorerSummaryObject[];

  @Field(() => Float, { nullable: true, description: "Median latency of the completed runs (nearest rank)." })
  latencyP50Ms!: number | null;

  @Field(() => Float, { nullable: true })
  latencyP95Ms!: number | null;

  @Field(() => Int, { description: "Tokens of the runs and of the judges." })
  tokens!: number;

  @Field(() => Float, { nullable: true, description: "Summed over the runs whose models have a price (judges not included); null when none has." })
  costUsd!: number | null;
}

@ObjectType("ExperimentResult", { description: "One dataset row's run and every scorer's verdict." })
export class ExperimentResultObject {
  @Field(() => ID)
  rowId!: string;

  @Field(() => Int, { description: "The row's position in its dataset." })
  position!: number;

  @Field(() => ID, { nullable: true, description: "The run; null when its start was refused (error says why)." })
  runId!: string | null;

  @Field(() => String, { nullable: true, description: "The run's final output; null when it did not complete.", complexity: TEXT_COST })
  output!: string | null;

  @Field(() => GraphQLJSON, { nullable: true, description: "The row's expected value, for reading beside the output.", complexity: TEXT_COST })
  expected!: unknown;

  @Field(() => Boolean)
  completed!: boolean;

  @Field(() => Int, { nullable: true })
  latencyMs!: number | null;

  @Field(() => Int)
  tokens!: number;

  @Field(() => String, { nullable: true, description: "`CODE: message` when the run did not complete." })
  error!: string | null;

  @Field(() => [ScoreObject])
  scores!: ScoreObject[];
}

export const { Connection: ExperimentResultConnection } = connectionTypes("ExperimentResult", () => ExperimentResultObject);

@ObjectType("ExperimentProgress")
export class ExperimentProgressObject {
  @Field(() => ID)
  experimentId!: string;

  @Field(() => ExperimentStatusEnum)
  status!: ExperimentStatus;

  @Field(() => Int)
  rows!: number;

  @Field(() => Int)
  completed!: number;

  @Field(() => Int)
  failed!: number;

  @Field(() => Date)
  at!: Date;
}

@ObjectType("Experiment", { description: "A version (or the draft) of a workflow run over every row of a dataset and scored (SPEC-V3 §4)." })
export class ExperimentObject {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  workflowId!: string;

  @Field(() => Int, { nullable: true, description: "The published version run; null for the draft." })
  version!: number | null;

  @Field(() => Boolean)
  draft!: boolean;

  @Field(() => ID)
  datasetId!: string;

  @Field(() => Int, { description: "The dataset's revision when the experiment started." })
  datasetRevision!: number;

  @Field(() => ExperimentStatusEnum)
  status!: ExperimentStatus;

  @Field(() => GraphQLJSON, { description: "The scorers, as given." })
  scorers!: unknown;

  @Field(() => Int)
  concurrency!: number;

  @Field(() => String, { nullable: true, description: "Why it FAILED." })
  error!: string | null;

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => Date, { nullable: true })
  finishedAt!: Date | null;

  /** Rows the experiment runs (summary.rows). */
  rows!: number;
}

export const { Connection: ExperimentConnection } = connectionTypes("Experiment", () => ExperimentObject);

@ObjectType("ExperimentPayload", { implements: MutationPayload })
export class ExperimentPayload extends MutationPayload {
  @Field(() => ExperimentObject, { nullable: true })
  experiment!: ExperimentObject | null;
}

@ObjectType("RowComparison", { description: "One dataset row in two experiments: a the baseline, b the candidate." })
export class RowComparisonObject {
  @Field(() => ID)
  rowId!: string;

  @Field(() => [ScoreObject], { nullable: true, description: "Null when experiment a has no result for the row." })
  scoresA!: ScoreObject[] | null;

  @Field(() => [ScoreObject], { nullable: true })
  scoresB!: ScoreObject[] | null;

  @Field(() => Float, { nullable: true, description: "Mean score of b minus a's over the scorers both have." })
  delta!: number | null;

  @Field(() => Boolean, { description: "A scorer that passed in a fails in b." })
  regressed!: boolean;

  @Field(() => Boolean, { description: "A scorer that failed in a passes in b, and none regressed." })
  improved!: boolean;
}

@ObjectType("ExperimentComparison")
export class ExperimentComparisonObject {
  @Field(() => ExperimentObject)
  a!: ExperimentObject;

  @Field(() => ExperimentObject)
  b!: ExperimentObject;

  @Field(() => ExperimentSummaryObject)
  summaryA!: ExperimentSummaryObject;

  @Field(() => ExperimentSummaryObject)
  summaryB!: ExperimentSummaryObject;

  @Field(() => Int)
  regressions!: number;

  @Field(() => Int)
  improvements!: number;

  @Field(() => [RowComparisonObject], { description: "Every row either experiment has a result for, in the dataset's order." })
  rows!: RowComparisonObject[];
}
