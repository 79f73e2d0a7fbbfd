import { Field, ID, Int, ObjectType } from "type-graphql";

@ObjectType("WorkflowChange", { description: "Published after every committed change of a workflow (graph, positions, settings) and its deletion." })
export class WorkflowChangeObject {
  @Field(() => ID)
  workflowId!: string;

  @Field(() => Int, { description: "The workflow's version after the change. Refetch when it is newer than yours." })
  version!: number;

  @Field(() => Date)
  at!: Date;

  @Field(() => Boolean, { description: "True when the workflow was deleted." })
  deleted!: boolean;
}
