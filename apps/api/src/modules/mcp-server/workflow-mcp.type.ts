import { Field, InputType, ObjectType } from "type-graphql";
import { MutationPayload } from "../../errors/user-error.type.js";

@ObjectType("WorkflowMcp", {
  description: "Whether the MCP server at /mcp offers this workflow's latest published version as a tool, and as what (SPEC-V3 §3).",
})
export class WorkflowMcpObject {
  @Field(() => Boolean, { description: "Offered at /mcp while true and a version is published." })
  enabled!: boolean;

  @Field(() => String, { nullable: true, description: "The tool's name (1–64 of letters, digits, `_` and `-`), unique among workflows; null until first set." })
  toolName!: string | null;

  @Field(() => String, { nullable: true, description: "The tool's description for models; null: the workflow's description." })
  description!: string | null;
}

@InputType("WorkflowMcpInput")
export class WorkflowMcpInput implements Partial<WorkflowMcpObject> {
  @Field(() => Boolean)
  enabled!: boolean;

  @Field(() => String, { nullable: true, description: "Omitted or null: kept, or on first use made from the workflow's name." })
  toolName?: string | null;

  @Field(() => String, { nullable: true, description: "At most 2,000 characters; omitted: kept; null: cleared (models read the workflow's description)." })
  description?: string | null;
}

@ObjectType("WorkflowMcpPayload", { implements: MutationPayload })
export class WorkflowMcpPayload extends MutationPayload {
  @Field(() => WorkflowMcpObject, { nullable: true })
  mcp!: WorkflowMcpObject | null;
}
