import { GraphQLJSON } from "graphql-scalars";
import { ArgsType, Field, ID, InputType } from "type-graphql";
import { PaginationArgs } from "../common/pagination.js";
import { HumanTaskStatusEnum, type HumanTaskObject, type HumanTaskStatusName } from "./human-task.type.js";

/** How long a comment may be. */
export const MAX_COMMENT_LENGTH = 10_000;

@InputType("CompleteHumanTaskInput")
export class CompleteHumanTaskInput implements Partial<Pick<HumanTaskObject, "action" | "data" | "comment">> {
  @Field(() => String, { description: "One of the task's actions: the node goes on through its port." })
  action!: string;

  @Field(() => GraphQLJSON, {
    nullable: true,
    description: "Data matching the task's form (an editable task without data keeps its input; with a form and no data, {} is checked).",
  })
  data?: unknown;

  @Field(() => String, { nullable: true, description: `Up to ${MAX_COMMENT_LENGTH} characters.` })
  comment?: string | null;
}

@ArgsType()
export class HumanTasksArgs extends PaginationArgs {
  @Field(() => [HumanTaskStatusEnum], { nullable: true, description: "Any of these statuses (default: every status)." })
  status?: HumanTaskStatusName[] | null;

  @Field(() => ID, { nullable: true })
  workflowId?: string | null;

  @Field(() => String, { nullable: true, description: "Tasks assigned to exactly this person or role." })
  assignee?: string | null;
}
