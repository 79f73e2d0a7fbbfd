import { isSuccessStatus } from "../../../http/http-response-value.js";
import { gateValue } from "../../../limits/value-gate.js";
import { WeftError } from "../../../model/errors.js";
import { jsonText, type JsonValue } from "../../../model/json-value.js";
import type { NodeExecutionContext } from "../../../registry/node-type-definition.js";
import { schemaMismatch } from "../../../schema/json-schema.check.js";
import { templateValuesOf } from "../../../template/node-template.js";
import { chunkValue } from "../chunk-value.js";
import { callHttp } from "../http-call.js";
import { toolUnavailable } from "../tool-inputs.js";
import type { OfferedTool } from "./tool-set.js";
import { WorkflowToolCost } from "./workflow-tool-cost.js";
import { addUsage, emptyUsage } from "../../../providers/llm-provider.js";
import type { PartialNodeDetails } from "../../../registry/node-failure.js";

/** Where a call comes from: a workflow tool's child run is found again by it. */
export interface ToolCallOrigin {
  nodeId: string;
  invocation: string;
  /** The calling node run's details: a workflow tool's model tokens and cost are added to them. */
  details: PartialNodeDetails;
}

/**
 * Calls one tool with arguments (an object): they must match the tool's parameters first
 * (TOOL_ARGUMENTS_INVALID, the tool is not reached). Resolves with the tool's result; a tool's own
 * failure (an MCP tool's `isError`, a workflow run that failed) throws TOOL_FAILED or the run's error.
 * A workflow tool's model tokens and cost are added to the origin's `details`.
 */
export async function callTool(context: NodeExecutionContext, tool: OfferedTool, args: Record<string, JsonValue>, origin: ToolCallOrigin): Promise<JsonValue> {
  const mismatch = schemaMismatch(tool.definition.parameters as JsonValue, args);
  if (mismatch !== null) throw new WeftError("TOOL_ARGUMENTS_INVALID", `the arguments do not match the parameters of ${tool.definition.name}: ${mismatch}`);
  const result = await reach(context, tool, args, origin);
  // A tool's answer (an MCP server's above all) is anyone's value: measured before anything reads or
  // serializes it, like a node's output.
  gateValue(result, context.limits, `the result of ${tool.definition.name}`);
  return result;
}

async function reach(context: NodeExecutionContext, tool: OfferedTool, args: Record<string, JsonValue>, origin: ToolCallOrigin): Promise<JsonValue> {
  switch (tool.spec.type) {
    case "retrieve": {
      const search = context.tools.knowledgeBases;
      if (!search) throw toolUnavailable("KNOWLEDGE_BASES_UNAVAILABLE", "knowledge-base search");
      const knowledgeBase = tool.spec.knowledgeBase;
      const query = { queries: [jsonText(args["query"] ?? "")], topK: tool.spec.topK ?? context.settings.topK };
      const result = await search.search(knowledgeBase, query, context.signal);
      return result.chunks.map((chunk) => chunkValue(chunk, { knowledgeBase }));
    }
    case "workflow": {
      const workflows = context.tools.workflows;
      if (!workflows || !("version" in tool)) throw toolUnavailable("TOOL_UNAVAILABLE", `workflow "${tool.spec.workflowId}" as a tool`);
      const { nodeId, invocation, details } = origin;
      const caller = { runId: context.runId, nodeId, invocation };
      // The called run spends from the caller's budget: counted here even when it fails after spending.
      const cost = new WorkflowToolCost(context.cost, nodeId, details);
      const result = await workflows.call({ workflowId: tool.spec.workflowId, version: tool.version, arguments: args, caller, cost }, context.signal);
      details.usage = addUsage(details.usage ?? emptyUsage(), result.usage);
      return result.output;
    }
    case "http": {
      // The node's own template values, and the call's arguments as {args.<name>}.
      const values = { ...templateValuesOf(context, context.settings.outputFormat, null), args };
      const { status, output } = await callHttp(context, tool.spec.request, values, () => undefined);
      if (!isSuccessStatus(status)) throw new WeftError("HTTP_STATUS", `${tool.definition.name} answered ${status}: ${clip(jsonText(output.body), 2_000)}`, { details: { status } });
      // Status and body: what the model needs, without the headers' tokens.
      return { status, body: output.body };
    }
    case "mcp": {
      const mcp = context.tools.mcp;
      if (!mcp || !("target" in tool)) throw toolUnavailable("TOOL_UNAVAILABLE", `MCP server "${tool.spec.server}"`);
      const result = await mcp.callTool(tool.spec.server, tool.target, args, context.signal);
      if (result.isError) {
        gateValue(result.content, context.limits, `the error of ${tool.definition.name}`);
        throw new WeftError("TOOL_FAILED", `${tool.definition.name} failed: ${clip(jsonText(result.content), 2_000)}`);
      }
      return result.content;
    }
  }
}

/** A short text of a value, for events and messages: at most `length` characters. */
export function clip(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}
