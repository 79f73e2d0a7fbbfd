import { Prisma, type PrismaClient } from "../../generated/prisma/client.js";
import { failure, success, type Outcome } from "../../errors/outcome.js";
import { notFoundError, userError, type UserError } from "../../errors/user-error.type.js";
import { isUuid } from "../common/uuid.js";
import { toolNameOf } from "../run/index.js";
import type { WorkflowMcpInput, WorkflowMcpObject } from "./workflow-mcp.type.js";

/** What model APIs accept as a function name (OpenAI, Mistral): MCP clients hand tools to models as they are. */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
export const MAX_TOOL_DESCRIPTION_LENGTH = 2_000;

/**
 * A workflow's MCP settings (SPEC-V3 §3 `mcp.enabled`, `mcp.toolName`, `mcp.description`): whether the
 * MCP server offers its latest published version as a tool. Tool names are unique across workflows (a
 * unique column), so two workflows never answer to one name; a disabled workflow keeps its name.
 */
export class WorkflowMcpService {
  constructor(private readonly db: PrismaClient) {}

  async set(workflowId: string, input: WorkflowMcpInput): Promise<Outcome<WorkflowMcpObject>> {
    const row = isUuid(workflowId) ? await this.db.workflow.findUnique({ where: { id: workflowId }, select: { name: true, ...MCP_COLUMNS } }) : null;
    if (!row) return failure(notFoundError("workflow", workflowId, ["workflowId"]));
    const toolName = input.toolName ?? row.mcpToolName ?? toolNameOf(row.name);
    // Left out, the description is kept (a toggle must not wipe it); null clears it.
    const description = input.description === undefined ? row.mcpDescription : input.description;
    const errors = checkSettings(toolName, description, input.toolName !== undefined && input.toolName !== null);
    if (errors.length > 0) return failure(...errors);
    try {
      const updated = await this.db.workflow.update({
        where: { id: workflowId },
        data: { mcpEnabled: input.enabled, mcpToolName: toolName, mcpDescription: description },
        select: MCP_COLUMNS,
      });
      return success(toMcpObject(updated));
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
        return failure(userError("MCP_TOOL_NAME_TAKEN", `another workflow is offered as the MCP tool "${toolName}"; choose another toolName`, { path: ["input", "toolName"] }));
      }
      throw error;
    }
  }
}

const MCP_COLUMNS = { mcpEnabled: true, mcpToolName: true, mcpDescription: true } as const;

function toMcpObject(row: { mcpEnabled: boolean; mcpToolName: string | null; mcpDescription: string | null }): WorkflowMcpObject {
  return { enabled: row.mcpEnabled, toolName: row.mcpToolName, description: row.mcpDescription };
}

/** `given`: the client named the tool (a name made from the workflow's name always fits). */
function checkSettings(toolName: string, description: string | null, given: boolean): UserError[] {
  const errors: UserError[] = [];
  if (given && !TOOL_NAME.test(toolName)) {
    errors.push(userError("MCP_TOOL_NAME_INVALID", "toolName must be 1–64 of letters, digits, `_` and `-` (what model APIs accept as a function name)", { path: ["input", "toolName"] }));
  }
  if (description !== null && description.length > MAX_TOOL_DESCRIPTION_LENGTH) {
    errors.push(userError("LIMIT_EXCEEDED", `description is ${description.length} characters; the limit is ${MAX_TOOL_DESCRIPTION_LENGTH}`, { path: ["input", "description"] }));
  }
  return errors;
}
