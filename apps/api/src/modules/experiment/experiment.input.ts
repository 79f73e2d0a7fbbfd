import { GraphQLJSON } from "graphql-scalars";
import { Field, ID, InputType, Int } from "type-graphql";

@InputType("StartExperimentInput", { description: "Runs a published version (version) or the draft (draft: true) over every row of a dataset." })
export class StartExperimentInput {
  @Field(() => ID)
  workflowId!: string;

  @Field(() => Int, { nullable: true })
  version?: number | null;

  @Field(() => Boolean, { nullable: true })
  draft?: boolean | null;

  @Field(() => ID)
  datasetId!: string;

  @Field(() => GraphQLJSON, { description: 'A JSON list of scorers: [{"id", "type": "exact" | "contains" | "regex" | "json_schema" | "similarity" | "judge", …settings, "threshold"?}].' })
  scorers!: unknown;

  @Field(() => Int, { nullable: true, description: "Rows running at once, 1..20 (default 4)." })
  concurrency?: number | null;
}
