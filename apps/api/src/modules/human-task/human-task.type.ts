import { GraphQLJSON } from "graphql-scalars";
import { Field, ID, ObjectType, registerEnumType } from "type-graphql";
import { TEXT_COST } from "../common/field-cost.js";
import { connectionTypes } from "../common/pagination.js";
import { MutationPayload } from "../../errors/user-error.type.js";
import { HumanActionObject } from "../run/index.js";

export const HumanTaskStatusEnum = {
  OPEN: "OPEN",
  COMPLETED: "COMPLETED",
  EXPIRED: "EXPIRED",
  CANCELLED: "CANCELLED",
} as const;
export type HumanTaskStatusName = keyof typeof HumanTaskStatusEnum;
registerEnumType(HumanTaskStatusEnum, {
  name: "HumanTaskStatus",
  description: "OPEN until a person completes it (COMPLETED), its timeout passes (EXPIRED) or its run ends first (CANCELLED).",
});

@ObjectType("HumanTask", { description: "A task a human node opened for a person (SPEC-V3 §2): one per node invocation." })
export class HumanTaskObject {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  runId!: string;

  @Field(() => ID)
  workflowId!: string;

  @Field(() => String, { description: "The human node's id." })
  nodeId!: string;

  @Field(() => String, { description: 'Which execution of the node ("" at top level, "revision#2", "items[3]", …; see NodeRun.invocation).' })
  invocation!: string;

  @Field(() => String, { complexity: TEXT_COST })
  title!: string;

  @Field(() => String, { description: "Markdown.", complexity: TEXT_COST })
  instructions!: string;

  @Field(() => [HumanActionObject])
  actions!: HumanActionObject[];

  @Field(() => GraphQLJSON, { nullable: true, description: "JSON Schema (an object) of the data to submit; null: no form.", complexity: TEXT_COST })
  form!: unknown;

  @Field(() => GraphQLJSON, { nullable: true, description: "The node's input: what the person reviews (with editable, the form's starting data).", complexity: TEXT_COST })
  input!: unknown;

  @Field(() => Boolean, { description: "The data submitted replaces the node's input downstream; the form starts from the input." })
  editable!: boolean;

  @Field(() => HumanTaskStatusEnum)
  status!: HumanTaskStatusName;

  @Field(() => String, { nullable: true, description: "Who should act (a person or a role)." })
  assignee!: string | null;

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => Date, { nullable: true, description: "When the task expires; null: no timeout." })
  expiresAt!: Date | null;

  @Field(() => Date, { nullable: true })
  completedAt!: Date | null;

  @Field(() => String, { nullable: true, description: "The name of the API key that completed it; null for an expiry or a cancellation." })
  completedBy!: string | null;

  @Field(() => String, { nullable: true, description: "The action taken (an expiry's: the node's onTimeout)." })
  action!: string | null;

  @Field(() => GraphQLJSON, { nullable: true, description: "The data submitted.", complexity: TEXT_COST })
  data!: unknown;

  @Field(() => String, { nullable: true, complexity: TEXT_COST })
  comment!: string | null;
}

export const { Edge: HumanTaskEdge, Connection: HumanTaskConnection } = connectionTypes("HumanTask", () => HumanTaskObject);

@ObjectType({ implements: MutationPayload })
export class CompleteHumanTaskPayload extends MutationPayload {
  @Field(() => HumanTaskObject, { nullable: true, description: "The task, COMPLETED; its run goes on." })
  task!: HumanTaskObject | null;
}
