import { Arg, Authorized, Ctx, FieldResolver, ID, Mutation, Resolver, Root } from "type-graphql";
import type { GraphQLContext } from "../../graphql/context.js";
import { WorkflowObject } from "../workflow/index.js";
import type { WorkflowMcpService } from "./workflow-mcp.service.js";
import { WorkflowMcpInput, WorkflowMcpObject, WorkflowMcpPayload } from "./workflow-mcp.type.js";

type McpSettingsContext = GraphQLContext<{ workflowMcp: WorkflowMcpService }>;

@Resolver(() => WorkflowObject)
export class WorkflowMcpResolver {
  @FieldResolver(() => WorkflowMcpObject, { description: "How the MCP server at /mcp offers this workflow as a tool." })
  mcp(@Root() workflow: WorkflowObject): WorkflowMcpObject {
    return workflow.mcpSettings;
  }

  @Authorized("write")
  @Mutation(() => WorkflowMcpPayload, { description: "Offers a workflow at /mcp as a tool (or stops), with its tool name and description." })
  async setWorkflowMcp(
    @Arg("workflowId", () => ID) workflowId: string,
    @Arg("input", () => WorkflowMcpInput) input: WorkflowMcpInput,
    @Ctx() context: McpSettingsContext,
  ): Promise<WorkflowMcpPayload> {
    const outcome = await context.services.workflowMcp.set(workflowId, input);
    return outcome.ok ? { mcp: outcome.value, errors: [] } : { mcp: null, errors: outcome.errors };
  }
}
