import type { AgentStepCall } from "../../events/run-event.js";
import { WeftError } from "../../model/errors.js";
import type { JsonValue } from "../../model/json-value.js";
import { addUsage, emptyUsage, type LlmFinishReason, type LlmMessage, type LlmToolCall, type TokenUsage } from "../../providers/llm-provider.js";
import type { PartialNodeDetails } from "../../registry/node-failure.js";
import type { NodeExecutionContext, RecordedEvent } from "../../registry/node-type-definition.js";
import { readJsonReply, type JsonReplyReading } from "../../result-parser/json-reply-repair.js";
import { callModel, type OpenedModelCall } from "../common/model-call.js";
import { modelPrice, usageCost } from "../../providers/model-cost.js";
import type { OfferedTool } from "../common/tools/tool-set.js";
import type { AgentSettings } from "./agent.config.js";
import { runToolCalls } from "./agent-tool-calls.js";

/** What one agent invocation works with. */
export interface AgentTask {
  /** The node's model call, opened (its provider resolved). */
  call: OpenedModelCall;
  /** The rendered prompt: the task, the conversation's first user message. */
  prompt: string;
  /** The rendered system prompt, if any. */
  system: string | null;
  tools: readonly OfferedTool[];
  settings: AgentSettings;
  details: PartialNodeDetails;
}

export interface AgentAnswer {
  output: JsonValue;
  steps: number;
  calls: number;
}

/** One step's model turn, as asked for now or as an earlier attempt recorded it (AGENT_STEP). */
interface StepTurn {
  text: string;
  toolCalls: LlmToolCall[];
}

/**
 * The agent's loop (SPEC-V3 §3): ask the model with the conversation so far; a reply with tool calls
 * has them executed (in parallel, each an invocation of its own) and their results added to the
 * conversation; a reply without is the final answer — with `schema`, JSON that matches it, else the
 * model is told what is wrong and tries again. A model still calling tools at step `maxSteps` fails the
 * node with AGENT_STEPS_EXHAUSTED. Each step is recorded as AGENT_STEP when the model has answered, so
 * a resumed run replays the steps an earlier attempt took (and their finished tool calls) instead of
 * asking the model again.
 */
export async function runAgentSteps(context: NodeExecutionContext, task: AgentTask): Promise<AgentAnswer> {
  const { maxSteps, schema } = task.settings;
  const system = systemPrompt(task.system ?? "", schema);
  const messages: LlmMessage[] = [...(system === "" ? [] : [{ role: "system" as const, content: system }]), { role: "user", content: task.prompt }];
  const recorded = recordedTurns(context, task);
  let calls = 0;
  for (let step = 1; step <= maxSteps; step += 1) {
    const turn = recorded.get(step) ?? (await askModel(context, task, messages, step));
    if (turn.toolCalls.length === 0) {
      const final = finalAnswer(turn.text, schema, context.limits.maxValueDepth);
      if (final.ok) return { output: final.value, steps: step, calls };
      if (step === maxSteps) throw final.error;
      messages.push({ role: "assistant", content: turn.text }, { role: "user", content: `Your answer could not be used: ${final.reason}. Answer again with only JSON that matches the schema.` });
      continue;
    }
    if (step === maxSteps) {
      throw new WeftError("AGENT_STEPS_EXHAUSTED", `the model still called tools at step ${maxSteps}, the node's maxSteps, without a final answer`, { audience: "operational" });
    }
    messages.push({ role: "assistant", content: turn.text, toolCalls: turn.toolCalls });
    messages.push(...(await runToolCalls(context, task.tools, step, turn.toolCalls)));
    calls += turn.toolCalls.length;
  }
  // maxSteps ≥ 1, and the last step returns or throws.
  throw new WeftError("AGENT_STEPS_EXHAUSTED", `no final answer within ${maxSteps} steps`, { audience: "operational" });
}

async function askModel(context: NodeExecutionContext, task: AgentTask, messages: readonly LlmMessage[], step: number): Promise<StepTurn> {
  const { node } = context;
  const tools = task.tools.map((tool) => tool.definition);
  const request = {
    ...task.call.request(task.prompt, task.prompt, false),
    messages: [...messages],
    ...(tools.length > 0 ? { tools, toolChoice: "auto" as const } : {}),
  };
  const reply = await callModel(context, task.call.provider, request, task.details);
  const toolCalls = reply.toolCalls ?? [];
  const calls: AgentStepCall[] = toolCalls.map((call) => ({ callId: call.id, tool: call.name, arguments: call.arguments }));
  context.emit({ type: "AGENT_STEP", nodeId: node.id, step, text: reply.text, calls, finishReason: reply.finishReason ?? null, usage: reply.usage });
  return { text: reply.text, toolCalls };
}

/** The schema goes into the system prompt, so the model knows the shape of its final answer from the start. */
function systemPrompt(system: string, schema: JsonValue | undefined): string {
  if (schema === undefined) return system;
  const rule = `When you give your final answer (calling no tool), reply with only JSON that matches this JSON Schema:\n${JSON.stringify(schema)}`;
  return system === "" ? rule : `${system}\n\n${rule}`;
}

/** Without a schema any text is the answer; with one, JSON that matches it (read as askForJson reads a reply). */
function finalAnswer(text: string, schema: JsonValue | undefined, maxDepth: number): JsonReplyReading {
  return schema === undefined ? { ok: true, value: text } : readJsonReply(text, schema, maxDepth);
}

/**
 * The steps an earlier attempt recorded (AGENT_STEP), by step, with their tokens added to the node's
 * usage and, for a priced model, their cost to the node's and the run's (they were spent: the run counts
 * them against `limits.maxCostUsd` as if it had not stopped). A record that is not what this code
 * writes is left out: that step asks the model again.
 */
function recordedTurns(context: NodeExecutionContext, task: AgentTask): Map<number, StepTurn> {
  const { details } = task;
  const price = context.node.model === undefined ? null : modelPrice(task.call.provider, context.node.model);
  const turns = new Map<number, StepTurn>();
  for (const event of context.recorded("AGENT_STEP")) {
    const turn = readTurn(event);
    if (!turn || turns.has(turn.step)) continue;
    turns.set(turn.step, turn);
    details.usage = addUsage(details.usage ?? emptyUsage(), turn.usage);
    details.rawReply = turn.text;
    if (price && turn.usage) {
      const spent = usageCost(turn.usage, price);
      details.costUsd = (details.costUsd ?? 0) + spent;
      context.cost.restore(spent);
    }
  }
  return turns;
}

function readTurn(event: RecordedEvent): (StepTurn & { step: number; usage: TokenUsage | null }) | null {
  const { step, text, calls, usage } = event as { step?: unknown; text?: unknown; calls?: unknown; usage?: unknown; finishReason?: LlmFinishReason };
  if (typeof step !== "number" || typeof text !== "string" || !Array.isArray(calls)) return null;
  const toolCalls: LlmToolCall[] = [];
  for (const call of calls as unknown[]) {
    const { callId, tool, arguments: args } = (call ?? {}) as { callId?: unknown; tool?: unknown; arguments?: unknown };
    if (typeof callId !== "string" || typeof tool !== "string" || typeof args !== "string") return null;
    toolCalls.push({ id: callId, name: tool, arguments: args });
  }
  return { step, text, toolCalls, usage: isUsage(usage) ? usage : null };
}

function isUsage(value: unknown): value is TokenUsage {
  const usage = value as Partial<TokenUsage> | null;
  return typeof usage?.promptTokens === "number" && typeof usage.completionTokens === "number" && typeof usage.totalTokens === "number";
}
