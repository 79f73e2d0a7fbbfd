import type { JsonValue, LlmProvider, LlmReply, LlmRequest, LlmStreamChunk, McpToolInfo, McpToolResult, McpTools } from "@weft/engine";

/**
 * The scripted model and the trivial tool both agents run with in agent-overhead.bench.ts. The model
 * counts its own earlier turns in the conversation it is sent: while fewer than `steps`, it asks for
 * `width` calls of `lookup` at once; then it answers. The tool answers at once from its argument. The
 * Weft side and the LangGraph.js side (langgraph-react-agent.ts) both call `scriptedTurn` and `lookup`.
 */
export interface AgentScript {
  /** Model turns that call tools; one more turn gives the final answer. */
  steps: number;
  /** Tool calls per tool-calling turn, run in parallel by both agents. */
  width: number;
}

export interface ScriptedCall {
  id: string;
  name: string;
  args: { key: string };
}

export const FINAL_ANSWER = "all keys looked up";

export const LOOKUP_TOOL = {
  name: "lookup",
  description: "Looks up the value stored under a key.",
  parameters: {
    type: "object",
    properties: { key: { type: "string", description: "The key." } },
    required: ["key"],
    additionalProperties: false,
  },
} as const;

/** The turn after `earlierTurns` model turns: tool calls, or (no calls) the final answer. */
export function scriptedTurn(script: AgentScript, earlierTurns: number): { text: string; calls: ScriptedCall[] } {
  const step = earlierTurns + 1;
  if (step > script.steps) return { text: FINAL_ANSWER, calls: [] };
  const calls = Array.from({ length: script.width }, (_, k) => ({ id: `call_${step}_${k + 1}`, name: LOOKUP_TOOL.name, args: { key: `k${step}.${k + 1}` } }));
  return { text: "", calls };
}

export function lookup(args: { key: string }): string {
  return `value of ${args.key}`;
}

/** The scripted model as a Weft provider: its earlier turns are the assistant messages it is sent. */
export function scriptedProvider(script: AgentScript): LlmProvider {
  const complete = async (request: LlmRequest): Promise<LlmReply> => {
    const earlier = (request.messages ?? []).filter((message) => message.role === "assistant").length;
    const turn = scriptedTurn(script, earlier);
    const toolCalls = turn.calls.map((call) => ({ id: call.id, name: call.name, arguments: JSON.stringify(call.args) }));
    return { text: turn.text, model: "scripted-agent", usage: null, toolCalls, finishReason: toolCalls.length > 0 ? "tool_calls" : "stop" };
  };
  return {
    id: "bench-agent",
    label: "Scripted agent model (benchmarks)",
    models: [{ id: "scripted-agent", label: "scripted-agent", testOnly: true }],
    complete,
    async *stream(request): AsyncIterable<LlmStreamChunk> {
      yield { type: "done", reply: await complete(request) };
    },
  };
}

/** `lookup` as the one tool of an in-memory MCP server ("bench"): no I/O, so only the engine is timed. */
export class InMemoryLookupServer implements McpTools {
  calls = 0;

  async listTools(server: string): Promise<McpToolInfo[]> {
    if (server !== "bench") throw new Error(`no MCP server "${server}"`);
    return [{ name: LOOKUP_TOOL.name, description: LOOKUP_TOOL.description, inputSchema: { ...LOOKUP_TOOL.parameters } }];
  }

  async callTool(server: string, tool: string, args: Readonly<Record<string, JsonValue>>): Promise<McpToolResult> {
    if (server !== "bench" || tool !== LOOKUP_TOOL.name) throw new Error(`no tool "${tool}" on "${server}"`);
    this.calls += 1;
    return { isError: false, content: lookup({ key: String(args["key"]) }) };
  }
}
