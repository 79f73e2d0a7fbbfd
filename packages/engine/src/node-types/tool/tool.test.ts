import { describe, expect, it } from "vitest";
import type { JsonValue } from "../../model/json-value.js";
import { checkNodeConfig } from "../../document/node-config.check.js";
import { validateWorkflow } from "../../rules/validate-workflow.js";
import { FakeMcpTools, FakeWorkflowTools } from "../../testing/fake-agent-tools.js";
import { FakeKnowledgeBases } from "../../testing/fake-tools.js";
import { runPipeline } from "../../testing/pipeline-harness.js";
import { pipeline } from "../../testing/pipeline-builder.js";
import { builtInRegistry } from "../built-in-node-types.js";

/** q ─► call (tool) ─► out */
const toolWorkflow = (config: Record<string, JsonValue>, question = "What colour is the sky?") =>
  pipeline().input("q", question).node("call", "tool", config).output("out").edges("q>call", "call>out").build();

const mcp = () =>
  new FakeMcpTools({
    maths: [
      { name: "add", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] }, call: (args) => ({ sum: Number(args["a"]) + Number(args["b"]) }) },
      { name: "explode", call: () => ({ isError: true, content: "boom" }) },
    ],
  });

describe("tool node (SPEC-V3 §3)", () => {
  it("calls an MCP tool with a map of CEL arguments, without a model", async () => {
    const servers = mcp();
    const workflow = toolWorkflow({ tool: { type: "mcp", server: "maths", tool: "add" }, arguments: { a: "size(input)", b: "2" } }, "four");
    expect(validateWorkflow(workflow, { registry: builtInRegistry })).toEqual([]);
    const run = await runPipeline({ workflow, tools: { mcp: servers } });
    expect(run.outcome.result).toBe('{"sum":6}');
    expect(servers.calls).toEqual([{ server: "maths", tool: "add", args: { a: 4, b: 2 } }]);
  });

  it("calls a knowledge base with a JSON template of the arguments", async () => {
    const knowledgeBases = new FakeKnowledgeBases({ docs: [{ id: "c1", documentId: "sky", chunkIndex: 0, text: "The sky is blue." }] });
    const run = await runPipeline({ workflow: toolWorkflow({ tool: { type: "retrieve", knowledgeBase: "docs", topK: 1 }, arguments: '{"query": {input}}' }), tools: { knowledgeBases } });
    expect(knowledgeBases.searches).toEqual([{ knowledgeBase: "docs", query: { queries: ["What colour is the sky?"], topK: 1 } }]);
    expect(JSON.parse(run.outcome.result!)).toEqual([expect.objectContaining({ chunkId: "c1", text: "The sky is blue." })]);
  });

  it("runs a published workflow with its input as the arguments when it is an object", async () => {
    const workflows = new FakeWorkflowTools({ wf: { name: "shout", inputs: ["text"], run: (args) => String(args["text"]).toUpperCase() } });
    const workflow = pipeline()
      .input("q", "hello")
      .node("args", "template", { template: '{"text": {input}}', json: true })
      .node("call", "tool", { tool: { type: "workflow", workflowId: "wf" } })
      .output("out")
      .edges("q>args", "args>call", "call>out")
      .build();
    const run = await runPipeline({ workflow, tools: { workflows } });
    expect(run.outcome.result).toBe("HELLO");
    expect(workflows.calls[0]!.caller).toEqual({ runId: "run-1", nodeId: "call", invocation: "" });
  });

  it("fails with the tool's code: its own error, arguments that do not match, a tool the run was not given", async () => {
    const failed = async (config: Record<string, JsonValue>, tools = { mcp: mcp() }) => (await runPipeline({ workflow: toolWorkflow(config), tools })).of("NODE_FAILED")[0]!.error.code;
    expect(await failed({ tool: { type: "mcp", server: "maths", tool: "explode" }, arguments: {} })).toBe("TOOL_FAILED");
    expect(await failed({ tool: { type: "mcp", server: "maths", tool: "add" }, arguments: { a: "'one'", b: "2" } })).toBe("TOOL_ARGUMENTS_INVALID");
    expect(await failed({ tool: { type: "mcp", server: "maths", tool: "add" } })).toBe("TOOL_ARGUMENTS_INVALID");
    expect(await failed({ tool: { type: "mcp", server: "maths", tool: "divide" }, arguments: {} })).toBe("TOOL_NOT_FOUND");
    expect(await failed({ tool: { type: "workflow", workflowId: "wf" } }, { mcp: mcp() })).toBe("TOOL_UNAVAILABLE");
  });

  it("refuses at edit time an MCP tool that names no tool, and an argument expression that does not compile", () => {
    const node = (config: Record<string, JsonValue>) => toolWorkflow(config).nodes[1]!;
    expect(checkNodeConfig(node({ tool: { type: "mcp", server: "maths" } }), { registry: builtInRegistry })).toEqual([
      expect.objectContaining({ path: "tool.tool", message: expect.stringContaining("name one of the server's tools") }),
    ]);
    const violations = validateWorkflow(toolWorkflow({ tool: { type: "mcp", server: "maths", tool: "add" }, arguments: { a: "1 +" } }), { registry: builtInRegistry });
    expect(violations.map((violation) => [violation.code, violation.field])).toEqual([["EXPRESSION_INVALID", "arguments.a"]]);
  });
});
