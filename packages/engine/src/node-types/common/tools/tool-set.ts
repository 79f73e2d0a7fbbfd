import { gateValue } from "../../../limits/value-gate.js";
import { WeftError } from "../../../model/errors.js";
import type { LlmToolDefinition } from "../../../providers/llm-provider.js";
import type { NodeExecutionContext } from "../../../registry/node-type-definition.js";
import { toolUnavailable } from "../tool-inputs.js";
import { TOOL_LIMITS, type HttpToolSpec, type McpToolSpec, type RetrieveToolSpec, type ToolSpec, type WorkflowToolSpec } from "./tool-spec.js";

/** A tool ready to offer a model: its definition, and what a call of it reaches. */
export type OfferedTool =
  | { definition: LlmToolDefinition; spec: WorkflowToolSpec; version: number }
  | { definition: LlmToolDefinition; spec: McpToolSpec; target: string }
  | { definition: LlmToolDefinition; spec: RetrieveToolSpec }
  | { definition: LlmToolDefinition; spec: HttpToolSpec };

const UNFIT_NAME_CHARACTER = /[^A-Za-z0-9_-]/g;

/**
 * The tools a node's specs stand for, as the model will see them: a workflow's parameters come from its
 * published version's input nodes, an MCP server's tools from the server (`tool` picks one), a knowledge
 * base takes a query. Names must differ (TOOL_NAME_DUPLICATE); a missing provider is TOOL_UNAVAILABLE, a
 * named MCP tool the server lacks TOOL_NOT_FOUND.
 */
export async function offerTools(context: NodeExecutionContext, specs: readonly ToolSpec[]): Promise<OfferedTool[]> {
  const lists = await Promise.all(specs.map((spec) => offer(context, spec)));
  const offered = lists.flat();
  if (offered.length > TOOL_LIMITS.maxOfferedTools) {
    throw new WeftError("TOOL_LIMIT_EXCEEDED", `the node offers ${offered.length} tools; at most ${TOOL_LIMITS.maxOfferedTools} can be offered to a model`);
  }
  const seen = new Set<string>();
  for (const tool of offered) {
    if (seen.has(tool.definition.name)) {
      throw new WeftError("TOOL_NAME_DUPLICATE", `two of the node's tools are named "${tool.definition.name}"; give one of them another name`);
    }
    seen.add(tool.definition.name);
  }
  return offered;
}

async function offer(context: NodeExecutionContext, spec: ToolSpec): Promise<OfferedTool[]> {
  switch (spec.type) {
    case "retrieve":
      return [{ definition: retrieveDefinition(spec), spec }];
    case "http":
      return [{ definition: { name: spec.name, description: spec.description, parameters: spec.parameters as Record<string, unknown> }, spec }];
    case "workflow": {
      const workflows = context.tools.workflows;
      if (!workflows) throw toolUnavailable("TOOL_UNAVAILABLE", `workflow "${spec.workflowId}" as a tool (workflow tools need the API server)`);
      const info = await workflows.describe({ workflowId: spec.workflowId, version: spec.version ?? null }, context.signal);
      const definition = { name: spec.name ?? info.name, description: spec.description ?? info.description, parameters: info.parameters };
      return [{ definition, spec, version: info.version }];
    }
    case "mcp": {
      const mcp = context.tools.mcp;
      if (!mcp) throw toolUnavailable("TOOL_UNAVAILABLE", `MCP server "${spec.server}"`);
      const listed = await mcp.listTools(spec.server, context.signal);
      const chosen = spec.tool === undefined ? listed : listed.filter((tool) => tool.name === spec.tool);
      if (spec.tool !== undefined && chosen.length === 0) throw new WeftError("TOOL_NOT_FOUND", `MCP server "${spec.server}" has no tool "${spec.tool}"`);
      return chosen.map((tool) => {
        // The server's schema goes into every step's request and checks every call: bounded like a value.
        gateValue(tool.inputSchema, { maxValueDepth: context.limits.maxValueDepth, maxNodeOutputBytes: TOOL_LIMITS.maxSchemaBytes }, `the input schema of MCP tool "${tool.name}"`);
        const description = tool.description.slice(0, TOOL_LIMITS.maxDescriptionLength);
        return { definition: { name: fitToolName(tool.name), description, parameters: objectSchema(tool.inputSchema) }, spec, target: tool.name };
      });
    }
  }
}

function retrieveDefinition(spec: RetrieveToolSpec): LlmToolDefinition {
  return {
    name: fitToolName(`search_${spec.knowledgeBase}`),
    description: `Searches the knowledge base "${spec.knowledgeBase}" and returns the passages that best match the query, best first.`,
    parameters: {
      type: "object",
      properties: { query: { type: "string", description: "What to look for, in words likely to appear in the passages." } },
      required: ["query"],
      additionalProperties: false,
    },
  };
}

/** A name model APIs take: other characters become `_`, at most 64. */
export function fitToolName(name: string): string {
  const fitted = name.replace(UNFIT_NAME_CHARACTER, "_").slice(0, 64);
  return fitted === "" ? "tool" : fitted;
}

/** MCP servers may send a schema without `type`: the arguments are always an object. */
function objectSchema(schema: Record<string, unknown>): Record<string, unknown> {
  return schema["type"] === undefined ? { ...schema, type: "object" } : schema;
}
