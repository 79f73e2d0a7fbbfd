import { Field, ID, Int, ObjectType } from "type-graphql";

@ObjectType("WorkflowTemplate", { description: "A ready-made workflow: createWorkflowFromTemplate makes a new workflow from it, runnable offline at once." })
export class WorkflowTemplateObject {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: "The name the new workflow gets." })
  name!: string;

  @Field(() => String, { description: "What it does, in one line." })
  description!: string;

  @Field(() => String, { description: "weft.workflow/v1 or weft.workflow/v2." })
  format!: string;

  @Field(() => Int)
  nodeCount!: number;

  @Field(() => [String], { description: "Knowledge bases it searches; made from the files shipped with the template when none of the name exists." })
  knowledgeBases!: string[];
}
