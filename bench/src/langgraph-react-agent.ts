import { BaseChatModel, type BindToolsInput } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { tool } from "@langchain/core/tools";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { FINAL_ANSWER, LOOKUP_TOOL, lookup, scriptedTurn, type AgentScript } from "./agent-script.js";

/** The scripted model of agent-script.ts as a LangChain chat model: its earlier turns are the AI messages it is sent. */
class ScriptedChatModel extends BaseChatModel {
  constructor(private readonly script: AgentScript) {
    super({});
  }

  _llmType(): string {
    return "scripted-agent";
  }

  /** As the real chat models do: the tools travel with the call's options (the script does not read them). */
  override bindTools(tools: BindToolsInput[]) {
    return this.withConfig({ tools } as Partial<this["ParsedCallOptions"]>);
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const turn = scriptedTurn(this.script, messages.filter((message) => AIMessage.isInstance(message)).length);
    const toolCalls = turn.calls.map((call) => ({ id: call.id, name: call.name, args: call.args, type: "tool_call" as const }));
    return { generations: [{ text: turn.text, message: new AIMessage({ content: turn.text, tool_calls: toolCalls }) }] };
  }
}

/** `lookup` as a LangChain tool with the same JSON Schema, checked on every call as Weft checks it. */
export const lookupTool = tool(async (args: { key: string }) => lookup(args), {
  name: LOOKUP_TOOL.name,
  description: LOOKUP_TOOL.description,
  schema: LOOKUP_TOOL.parameters,
});

/**
 * LangGraph.js's prebuilt ReAct agent (`createReactAgent`) over the scripted model and `lookup`: an
 * `agent` node and a `tools` node. In its default graph (v1) one ToolNode task runs a turn's calls in
 * parallel; in v2 each call is a task of its own (Send), as each is an invocation of its own in Weft.
 * Returns one run: the agent answers the task, and the run checks it reached the final answer.
 */
export function reactAgentRun(script: AgentScript, version: "v1" | "v2"): () => Promise<void> {
  const agent = createReactAgent({ llm: new ScriptedChatModel(script), tools: [lookupTool], version });
  // Each turn is two supersteps (agent, tools), and the answer one more.
  const recursionLimit = script.steps * 2 + 5;
  return async () => {
    const state = await agent.invoke({ messages: [new HumanMessage("Look up every key you are given.")] }, { recursionLimit });
    const last = state.messages.at(-1);
    const toolMessages = state.messages.filter((message) => message.getType() === "tool").length;
    if (last?.content !== FINAL_ANSWER || toolMessages !== script.steps * script.width) {
      throw new Error(`the ReAct agent ended with "${String(last?.content)}" after ${toolMessages} tool results`);
    }
  };
}
