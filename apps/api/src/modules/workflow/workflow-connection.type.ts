import { Field, Int, ObjectType } from "type-graphql";
import { PageInfo } from "../common/pagination.js";
import { WorkflowObject } from "./workflow.type.js";

/**
 * Declared by hand rather than with connectionTypes("Workflow"), whose `WorkflowEdge` would clash with
 * the graph's edge type of that name.
 */
@ObjectType("WorkflowConnectionEdge")
export class WorkflowConnectionEdge {
  @Field(() => String)
  cursor!: string;

  @Field(() => WorkflowObject)
  node!: WorkflowObject;
}

@ObjectType("WorkflowConnection")
export class WorkflowConnection {
  @Field(() => [WorkflowConnectionEdge])
  edges!: WorkflowConnectionEdge[];

  @Field(() => PageInfo)
  pageInfo!: PageInfo;

  @Field(() => Int)
  totalCount!: number;
}
