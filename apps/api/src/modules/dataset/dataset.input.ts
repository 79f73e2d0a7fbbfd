import { GraphQLJSON } from "graphql-scalars";
import { Field, InputType } from "type-graphql";

@InputType("CreateDatasetInput")
export class CreateDatasetInput {
  @Field(() => String)
  name!: string;

  @Field(() => String, { nullable: true })
  description?: string | null;
}

@InputType("DatasetRowContentInput", { description: "One input node's content." })
export class DatasetRowContentInput {
  @Field(() => String)
  nodeId!: string;

  @Field(() => String)
  content!: string;
}

@InputType("DatasetRowInput", { description: "One row: contents of input nodes, the expected answer (a string: text; other JSON: JSON), tags." })
export class DatasetRowInput {
  @Field(() => [DatasetRowContentInput])
  inputs!: DatasetRowContentInput[];

  @Field(() => GraphQLJSON, { nullable: true })
  expected?: unknown;

  @Field(() => [String], { nullable: true })
  tags?: string[] | null;
}
