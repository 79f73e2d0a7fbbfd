import { Field, ID, ObjectType } from "type-graphql";
import { WorkflowEdgeObject, WorkflowNodeObject, WorkflowObject } from "./workflow.type.js";
import { MutationPayload, UserError } from "../../errors/user-error.type.js";

@ObjectType({ implements: MutationPayload })
export class WorkflowPayload extends MutationPayload {
  @Field(() => WorkflowObject, { nullable: true })
  workflow!: WorkflowObject | null;
}

@ObjectType({ implements: MutationPayload })
export class DeleteWorkflowPayload extends MutationPayload {
  @Field(() => ID, { nullable: true })
  deletedWorkflowId!: string | null;
}

@ObjectType({ implements: MutationPayload, description: "Result of addNode and updateNode." })
export class NodePayload extends MutationPayload {
  @Field(() => WorkflowObject, { nullable: true, description: "The workflow after the edit (new version)." })
  workflow!: WorkflowObject | null;

  @Field(() => WorkflowNodeObject, { nullable: true })
  node!: WorkflowNodeObject | null;
}

@ObjectType({ implements: MutationPayload })
export class RemoveNodePayload extends MutationPayload {
  @Field(() => WorkflowObject, { nullable: true })
  workflow!: WorkflowObject | null;

  @Field(() => ID, { nullable: true })
  removedNodeId!: string | null;

  @Field(() => [ID], { description: "The edges that touched the node, removed with it." })
  removedEdgeIds!: string[];
}

@ObjectType({ implements: MutationPayload })
export class EdgePayload extends MutationPayload {
  @Field(() => WorkflowObject, { nullable: true })
  workflow!: WorkflowObject | null;

  @Field(() => WorkflowEdgeObject, { nullable: true })
  edge!: WorkflowEdgeObject | null;
}

@ObjectType({ implements: MutationPayload })
export class RemoveEdgePayload extends MutationPayload {
  @Field(() => WorkflowObject, { nullable: true })
  workflow!: WorkflowObject | null;

  @Field(() => ID, { nullable: true })
  removedEdgeId!: string | null;
}

@ObjectType("ValidationReport", { description: "Every rule over the whole graph, all violations at once." })
export class ValidationReport {
  @Field(() => Boolean)
  valid!: boolean;

  @Field(() => [UserError])
  violations!: UserError[];
}
