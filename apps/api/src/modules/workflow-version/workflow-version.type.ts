import { GraphQLJSON } from "graphql-scalars";
import { Field, ID, Int, ObjectType } from "type-graphql";
import { connectionTypes } from "../common/pagination.js";
import { TEXT_COST } from "../common/field-cost.js";
import { MutationPayload } from "../../errors/user-error.type.js";

@ObjectType("WorkflowVersion", {
  description:
    "A published version: an immutable copy of the workflow's graph, prompts and settings, numbered 1, 2, … " +
    "within its workflow. Runs of a version execute exactly this content, whatever later edits do.",
})
export class WorkflowVersionObject {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  workflowId!: string;

  @Field(() => Int, { description: "1 for the first published version, then one more each time, without gaps." })
  number!: number;

  @Field(() => String, { description: "What the publisher said about it." })
  note!: string;

  @Field(() => String, {
    description: "SHA-256 (hex) of the version's document in canonical JSON (RFC 8785): equal hashes mean equal content.",
  })
  contentHash!: string;

  @Field(() => Int, { description: "The workflow's `version` (its edit counter) when this was published." })
  editVersion!: number;

  @Field(() => String, { nullable: true, description: "Name of the API key that published it; null when authentication is disabled." })
  publishedBy!: string | null;

  @Field(() => Date)
  publishedAt!: Date;
}

export const { Connection: WorkflowVersionConnection } = connectionTypes("WorkflowVersion", () => WorkflowVersionObject);

@ObjectType({ implements: MutationPayload })
export class PublishWorkflowPayload extends MutationPayload {
  @Field(() => WorkflowVersionObject, { nullable: true, description: "The new version." })
  version!: WorkflowVersionObject | null;
}

@ObjectType("FieldChange", { description: "One field that differs; `from` or `to` is null where the field is absent." })
export class FieldChangeObject {
  @Field(() => String, { description: "The field's name as a document writes it; `params.temperature` one level inside an object." })
  field!: string;

  @Field(() => GraphQLJSON, { nullable: true, complexity: TEXT_COST })
  from!: unknown;

  @Field(() => GraphQLJSON, { nullable: true, complexity: TEXT_COST })
  to!: unknown;
}

@ObjectType("ItemChange", { description: "A node or edge present on both sides whose fields differ." })
export class ItemChangeObject {
  @Field(() => ID)
  id!: string;

  @Field(() => [FieldChangeObject])
  fields!: FieldChangeObject[];
}

@ObjectType("ItemChanges", { description: "Nodes or edges, matched by id." })
export class ItemChangesObject {
  @Field(() => [ID], { description: "Only in `to`, in its order." })
  added!: string[];

  @Field(() => [ID], { description: "Only in `from`, in its order." })
  removed!: string[];

  @Field(() => [ItemChangeObject])
  changed!: ItemChangeObject[];
}

@ObjectType("SettingChanges", { description: "Every other field of the document: name, prompts, output format, knowledge base, …" })
export class SettingChangesObject {
  @Field(() => [FieldChangeObject])
  added!: FieldChangeObject[];

  @Field(() => [FieldChangeObject])
  removed!: FieldChangeObject[];

  @Field(() => [FieldChangeObject])
  changed!: FieldChangeObject[];
}

@ObjectType("WorkflowComparison", { description: "What changed from one version of a workflow to another, or to its draft." })
export class WorkflowComparisonObject {
  @Field(() => ID)
  workflowId!: string;

  @Field(() => Int)
  from!: number;

  @Field(() => Int, { nullable: true, description: "null: the draft (the workflow as it is now)." })
  to!: number | null;

  @Field(() => ItemChangesObject)
  nodes!: ItemChangesObject;

  @Field(() => ItemChangesObject)
  edges!: ItemChangesObject;

  @Field(() => SettingChangesObject)
  settings!: SettingChangesObject;

  @Field(() => Boolean, { description: "Nothing differs." })
  identical!: boolean;
}
