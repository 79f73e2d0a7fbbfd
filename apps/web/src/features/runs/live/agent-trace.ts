/**
 * An agent's work as the run page shows it (SPEC-V3 §3): its steps in order, each with the model's reply,
 * its tokens and the tool calls it asked for, and each call with its arguments and its result or error as
 * the call's own events tell them. Pure, so the page and the tests read the same events the same way.
 *
 * A step's calls are invocations of their own, `"<agentId>@<step>.<n>"` under the agent's invocation
 * (`"regen#2/research@2.1"` in a loop's second iteration); their NODE_* events carry the agent's node id.
 */

import type { ModelPrice } from "@weft/engine";
import type { LiveEvent } from "./live-state";

/** running: TOOL_CALLED came, its TOOL_RESULT not yet; waiting: asked for, not started (or never: the agent failed first). */
export type ToolCallStatus = "waiting" | "running" | "ok" | "failed";

export interface ToolCallView {
  callId: string;
  tool: string;
  /** The call's invocation (`research@2.1`): its node run and timeline row. */
  invocation: string;
  /** The arguments as the call started them (TOOL_CALLED), else as the model wrote them (AGENT_STEP). */
  arguments: unknown;
  status: ToolCallStatus;
  /** The result, or `CODE: message` (at most 200 characters; the node run has the whole). */
  summary: string | null;
}

export interface AgentStepView {
  step: number;
  text: string | null;
  finishReason: string | null;
  usage: { promptTokens: number; completionTokens: number; totalTokens: number } | null;
  calls: ToolCallView[];
}

/** The segment a call adds to its agent's invocation. */
const CALL_SEGMENT = /^(.+)@(\d+)\.(\d+)$/;

/** `"regen#2/research@2.1"` → the agent's invocation "regen#2", agent "research", step 2, call 1; null for any other invocation. */
export function parseCallInvocation(invocation: string): { parent: string; agentId: string; step: number; index: number } | null {
  const slash = invocation.lastIndexOf("/");
  const match = CALL_SEGMENT.exec(invocation.slice(slash + 1));
  if (!match) return null;
  return { parent: slash === -1 ? "" : invocation.slice(0, slash), agentId: match[1]!, step: Number(match[2]), index: Number(match[3]) };
}

/** The invocation of a step's n-th call (n from 1), under the agent's own invocation. */
export const callInvocation = (agentId: string, agentInvocation: string, step: number, index: number): string =>
  `${agentInvocation ? `${agentInvocation}/` : ""}${agentId}@${step}.${index}`;

/** True for the invocation of a tool call an agent made (its node run is of type `tool`). */
export const isToolCallInvocation = (invocation: string): boolean => parseCallInvocation(invocation) !== null;

/**
 * The steps of one execution of an agent (`agentInvocation`: "" at top level), from the run's events in
 * seq order. A step recorded twice (a resumed run replays its journal) is shown once, as last recorded.
 */
export function agentTrace(events: readonly LiveEvent[], agentId: string, agentInvocation: string): AgentStepView[] {
  const steps = new Map<number, AgentStepView>();
  const calls = new Map<string, ToolCallView>();
  for (const event of events) {
    const agent = event.agent;
    if (!agent || event.nodeId !== agentId) continue;
    const invocation = event.pipeline?.invocation ?? "";
    if (event.type === "AGENT_STEP" && invocation === agentInvocation && agent.step !== null) {
      const step = agent.step;
      steps.set(step, {
        step,
        text: agent.text,
        finishReason: agent.finishReason,
        usage: agent.usage,
        calls: agent.calls.map((call, k) => {
          const at = callInvocation(agentId, agentInvocation, step, k + 1);
          const known = calls.get(at);
          if (known?.callId === call.callId) return known;
          const view: ToolCallView = { callId: call.callId, tool: call.tool, invocation: at, arguments: call.arguments, status: "waiting", summary: null };
          calls.set(at, view);
          return view;
        }),
      });
      continue;
    }
    const call = calls.get(invocation);
    if (!call) continue;
    if (event.type === "TOOL_CALLED") Object.assign(call, { arguments: agent.arguments, status: "running" });
    if (event.type === "TOOL_RESULT") Object.assign(call, { status: agent.ok ? "ok" : "failed", summary: agent.summary });
  }
  return [...steps.values()].sort((a, b) => a.step - b.step);
}

/** Tokens over the steps shown. */
export const stepTokens = (steps: readonly AgentStepView[]): number => steps.reduce((sum, step) => sum + (step.usage?.totalTokens ?? 0), 0);

/** The call id a tool call's invocation was started with (its TOOL_CALLED), when that event has come. */
export function callIdOf(events: readonly LiveEvent[], nodeId: string, invocation: string): string | null {
  const called = events.find((event) => event.type === "TOOL_CALLED" && event.nodeId === nodeId && event.pipeline?.invocation === invocation);
  return called?.agent?.callId ?? null;
}

/** A model's configured prices (the `models` query), when both are set: what its calls cost is then known. */
export function priceOf(
  providers: readonly { id: string; models: readonly { id: string; inputUsdPerMTok?: number | null; outputUsdPerMTok?: number | null }[] }[],
  provider: string | null | undefined,
  model: string | null | undefined,
): ModelPrice | null {
  const found = providers.find((candidate) => candidate.id === provider)?.models.find((candidate) => candidate.id === model);
  if (typeof found?.inputUsdPerMTok !== "number" || typeof found.outputUsdPerMTok !== "number") return null;
  return { inputUsdPerMTok: found.inputUsdPerMTok, outputUsdPerMTok: found.outputUsdPerMTok };
}
