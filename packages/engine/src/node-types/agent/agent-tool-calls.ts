import { isAbortError, WeftError } from "../../model/errors.js";
import { jsonText, type JsonValue } from "../../model/json-value.js";
import { parseToolArguments } from "../../providers/llm-messages.js";
import type { LlmMessage, LlmToolCall } from "../../providers/llm-provider.js";
import { emptyNodeDetails, NodeFailure } from "../../registry/node-failure.js";
import type { ChildInvocation, ChildInvocationOutcome, NodeExecutionContext, NodeExecutionResult } from "../../registry/node-type-definition.js";
import { callTool, clip } from "../common/tools/tool-call.js";
import type { OfferedTool } from "../common/tools/tool-set.js";
import { TOOL_LIMITS } from "../common/tools/tool-spec.js";

/** TOOL_RESULT's summary: a short text of what came back. */
const SUMMARY_LENGTH = 200;

/**
 * Executes one step's tool calls at once (SPEC-V3 §3), each an invocation of its own
 * (`"<agentId>@<step>.<n>"`, n from 1 in the model's order) with TOOL_CALLED and TOOL_RESULT, and
 * returns one `tool` message per call for the conversation, in the model's order. A call that fails —
 * an unknown tool, arguments that are not a JSON object or do not match, the tool's own error — fails
 * its invocation and tells the model why; the agent goes on.
 */
export async function runToolCalls(context: NodeExecutionContext, tools: readonly OfferedTool[], step: number, calls: readonly LlmToolCall[]): Promise<LlmMessage[]> {
  const byName = new Map(tools.map((tool) => [tool.definition.name, tool]));
  // One reply may ask for any number of calls: the first maxCallsPerStep run; every call still gets its
  // answer (the model APIs want one per call), the ones after it an error saying to ask again.
  const executed = calls.slice(0, TOOL_LIMITS.maxCallsPerStep);
  const outcomes = await context.runInvocations(
    executed.map((call, k) => ({
      segment: `${context.node.id}@${step}.${k + 1}`,
      nodeType: "tool",
      work: (child: ChildInvocation) => callOne(context, byName, call, child),
    })),
  );
  context.signal.throwIfAborted();
  return calls.map((call, k) => ({ role: "tool", toolCallId: call.id, name: call.name, content: k < executed.length ? resultMessage(outcomes[k]!) : CALLS_LIMIT_MESSAGE }));
}

const CALLS_LIMIT_MESSAGE = JSON.stringify({
  error: { code: "TOOL_CALLS_LIMIT", message: `not executed: at most ${TOOL_LIMITS.maxCallsPerStep} tool calls of one reply are executed; ask for this one again in the next step` },
});

async function callOne(context: NodeExecutionContext, tools: ReadonlyMap<string, OfferedTool>, call: LlmToolCall, child: ChildInvocation): Promise<NodeExecutionResult> {
  const nodeId = context.node.id;
  const parsed = parseToolArguments(call, context.limits.maxValueDepth);
  const args: JsonValue = parsed.ok ? parsed.value : call.arguments;
  child.emit({ type: "TOOL_CALLED", nodeId, callId: call.id, tool: call.name, arguments: args });
  const details = emptyNodeDetails([jsonText(args)]);
  child.track(details);
  try {
    const tool = tools.get(call.name);
    if (!tool) throw new WeftError("TOOL_NOT_FOUND", `there is no tool "${call.name}"; the tools are ${[...tools.keys()].join(", ") || "none"}`);
    if (!parsed.ok) throw new WeftError("TOOL_ARGUMENTS_INVALID", parsed.message);
    const output = await callTool(context, tool, parsed.value, { nodeId, invocation: child.invocation, details });
    child.emit({ type: "TOOL_RESULT", nodeId, callId: call.id, tool: call.name, ok: true, summary: clip(jsonText(output), SUMMARY_LENGTH) });
    return { description: `${call.name} answered`, output, details };
  } catch (error) {
    if (!isAbortError(error)) {
      const { code, message } = error instanceof WeftError ? error : { code: "TOOL_FAILED", message: error instanceof Error ? error.message : String(error) };
      child.emit({ type: "TOOL_RESULT", nodeId, callId: call.id, tool: call.name, ok: false, summary: clip(`${code}: ${message}`, SUMMARY_LENGTH) });
    }
    throw NodeFailure.wrap(error, details);
  }
}

/** What the model reads back: the result (text as it is, other values as JSON), or the error as JSON. */
function resultMessage(outcome: ChildInvocationOutcome): string {
  if (outcome.ok) return jsonText(outcome.result.output);
  return JSON.stringify({ error: { code: outcome.error.code, message: outcome.error.message } });
}
