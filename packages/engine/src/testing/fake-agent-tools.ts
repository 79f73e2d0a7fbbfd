import { WeftError } from "../model/errors.js";
import type { JsonValue } from "../model/json-value.js";
import { addUsage, emptyUsage, type TokenUsage } from "../providers/llm-provider.js";
import type { McpToolInfo, McpToolResult, McpTools } from "../providers/mcp-tools.js";
import type { WorkflowToolCall, WorkflowToolInfo, WorkflowToolRef, WorkflowToolResult, WorkflowTools } from "../providers/workflow-tools.js";

type Answer<T> = (args: Readonly<Record<string, JsonValue>>, signal: AbortSignal) => T | Promise<T>;

export interface FakeWorkflow {
  name: string;
  description?: string;
  /** Input node ids: the parameters. */
  inputs: string[];
  version?: number;
  /** Priced model calls a run makes before it answers: each reserves its estimate from the caller's budget, then costs `usd`. */
  pricedCalls?: { estimateUsd: number; usd: number; usage: TokenUsage }[];
  run: Answer<JsonValue>;
}

/** Published workflows for agent tests: described from their inputs, "run" by a function; every call recorded. */
export class FakeWorkflowTools implements WorkflowTools {
  readonly calls: WorkflowToolCall[] = [];

  constructor(private readonly workflows: Record<string, FakeWorkflow>) {}

  async describe(ref: WorkflowToolRef): Promise<WorkflowToolInfo> {
    const workflow = this.#workflow(ref.workflowId);
    const properties = Object.fromEntries(workflow.inputs.map((id) => [id, { type: "string" }]));
    const parameters = { type: "object", properties, required: workflow.inputs, additionalProperties: false };
    return { name: workflow.name, description: workflow.description ?? `Runs ${workflow.name}.`, parameters, version: ref.version ?? workflow.version ?? 1 };
  }

  async call(call: WorkflowToolCall, signal: AbortSignal): Promise<WorkflowToolResult> {
    this.calls.push(call);
    const workflow = this.#workflow(call.workflowId);
    let usage = emptyUsage();
    for (const priced of workflow.pricedCalls ?? []) {
      call.cost.reserve(priced.estimateUsd, "fake-model").settle(priced.usd);
      usage = addUsage(usage, priced.usage);
    }
    const output = await workflow.run(call.arguments, signal);
    return { output, runId: `child-${this.calls.length}`, usage };
  }

  #workflow(id: string): FakeWorkflow {
    const workflow = this.workflows[id];
    if (!workflow) throw new WeftError("WORKFLOW_NOT_FOUND", `workflow "${id}" does not exist`);
    return workflow;
  }
}

export interface FakeMcpTool extends Partial<McpToolInfo> {
  name: string;
  call: Answer<McpToolResult | JsonValue>;
}

/** MCP servers for agent tests: tools by server, answered by functions; every call recorded. */
export class FakeMcpTools implements McpTools {
  readonly calls: { server: string; tool: string; args: Readonly<Record<string, JsonValue>> }[] = [];

  constructor(private readonly servers: Record<string, FakeMcpTool[]>) {}

  async listTools(server: string): Promise<McpToolInfo[]> {
    return this.#server(server).map((tool) => ({ name: tool.name, description: tool.description ?? "", inputSchema: tool.inputSchema ?? { type: "object" } }));
  }

  async callTool(server: string, name: string, args: Readonly<Record<string, JsonValue>>, signal: AbortSignal): Promise<McpToolResult> {
    this.calls.push({ server, tool: name, args });
    const tool = this.#server(server).find((entry) => entry.name === name);
    if (!tool) throw new WeftError("TOOL_NOT_FOUND", `MCP server "${server}" has no tool "${name}"`);
    const answer = await tool.call(args, signal);
    return isResult(answer) ? answer : { isError: false, content: answer };
  }

  #server(name: string): FakeMcpTool[] {
    const tools = this.servers[name];
    if (!tools) throw new WeftError("MCP_SERVER_UNKNOWN", `MCP server "${name}" is not configured`);
    return tools;
  }
}

function isResult(value: unknown): value is McpToolResult {
  return value !== null && typeof value === "object" && !Array.isArray(value) && "isError" in value && "content" in value;
}
