import { GraphQLJSON } from "graphql-scalars";
import { Field, Float, ID, InputType, ObjectType } from "type-graphql";
import { MutationPayload } from "../../errors/user-error.type.js";

@ObjectType("PublishGate", { description: "What publishWorkflow requires of the draft first (SPEC-V3 §4): an experiment over the dataset that meets minMean and, with noRegression, no row regressed against the latest published version." })
export class PublishGateObject {
  @Field(() => ID)
  datasetId!: string;

  @Field(() => GraphQLJSON, { description: "The scorers, a JSON list as startExperiment takes it." })
  scorers!: unknown;

  @Field(() => Float, { nullable: true, description: "Every scorer's mean must be at least this (0..1)." })
  minMean!: number | null;

  @Field(() => Boolean, { description: "No row may fail a scorer it passed with the latest published version." })
  noRegression!: boolean;
}

@InputType("PublishGateInput")
export class PublishGateInput {
  @Field(() => ID)
  datasetId!: string;

  @Field(() => GraphQLJSON)
  scorers!: unknown;

  @Field(() => Float, { nullable: true })
  minMean?: number | null;

  @Field(() => Boolean, { nullable: true })
  noRegression?: boolean | null;
}

@ObjectType("PublishGatePayload", { implements: MutationPayload })
export class PublishGatePayload extends MutationPayload {
  @Field(() => PublishGateObject, { nullable: true, description: "The gate now; null when it was removed." })
  publishGate!: PublishGateObject | null;
}
