import { GraphQLJSON } from "graphql-scalars";
import { Field, ID, Int, ObjectType, registerEnumType } from "type-graphql";
import { TEXT_COST } from "../common/field-cost.js";
import { connectionTypes } from "../common/pagination.js";
import { MutationPayload } from "../../errors/user-error.type.js";

export const DatasetFormatEnum = { JSONL: "JSONL", CSV: "CSV" } as const;
export type DatasetFormat = keyof typeof DatasetFormatEnum;
registerEnumType(DatasetFormatEnum, {
  name: "DatasetFormat",
  description:
    'JSONL: one row object per line, `{"inputs": {"<nodeId>": "…"} | [{"nodeId", "content"}], "expected"?, "tags"?}`. CSV: a header row; columns `expected` (text), `expected_json` (JSON), `tags` (comma-separated), every other column an input node id.',
});

@ObjectType("DatasetRowContent", { description: "One input node's content in a dataset row." })
export class DatasetRowContentObject {
  @Field(() => String)
  nodeId!: string;

  @Field(() => String, { complexity: TEXT_COST })
  content!: string;
}

@ObjectType("DatasetRow", { description: "One case: what the run starts with and what it should answer (SPEC-V3 §4)." })
export class DatasetRowObject {
  @Field(() => ID)
  id!: string;

  @Field(() => Int, { description: "1, 2, … in the order rows were added; experiments run rows in this order." })
  position!: number;

  @Field(() => [DatasetRowContentObject])
  inputs!: DatasetRowContentObject[];

  @Field(() => GraphQLJSON, { nullable: true, description: "What the run should answer: a string is compared as text, other JSON as JSON; null: none.", complexity: TEXT_COST })
  expected!: unknown;

  @Field(() => [String])
  tags!: string[];
}

export const { Connection: DatasetRowConnection } = connectionTypes("DatasetRow", () => DatasetRowObject);

@ObjectType("Dataset", { description: "Rows to run a workflow on in experiments and before publishing (SPEC-V3 §4)." })
export class DatasetObject {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  description!: string;

  @Field(() => Int)
  rowCount!: number;

  @Field(() => Int, { description: "Incremented by every change of the rows: the publish gate reuses an experiment only on the revision it ran." })
  revision!: number;

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => Date)
  updatedAt!: Date;
}

export const { Connection: DatasetConnection } = connectionTypes("Dataset", () => DatasetObject);

@ObjectType("DatasetPayload", { implements: MutationPayload })
export class DatasetPayload extends MutationPayload {
  @Field(() => DatasetObject, { nullable: true })
  dataset!: DatasetObject | null;
}

@ObjectType("AddDatasetRowsPayload", { implements: MutationPayload })
export class AddDatasetRowsPayload extends MutationPayload {
  @Field(() => DatasetObject, { nullable: true })
  dataset!: DatasetObject | null;

  @Field(() => Int, { description: "Rows added by this call (0 when refused: a call adds all its rows or none)." })
  added!: number;
}

@ObjectType("DeleteDatasetPayload", { implements: MutationPayload })
export class DeleteDatasetPayload extends MutationPayload {
  @Field(() => ID, { nullable: true })
  id!: string | null;
}
