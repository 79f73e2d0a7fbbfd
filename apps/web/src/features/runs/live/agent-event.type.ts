/** The fields of an agent's events (SPEC-V3 §3: AGENT_STEP, TOOL_CALLED, TOOL_RESULT), null where the kind has none. */
export interface AgentEventFields {
  /** AGENT_STEP: the step, from 1. */
  step: number | null;
  /** AGENT_STEP: what the model wrote. */
  text: string | null;
  /** AGENT_STEP: why the model stopped (stop, tool_calls, length, …), when the provider said. */
  finishReason: string | null;
  /** AGENT_STEP: the step's tokens. */
  usage: { promptTokens: number; completionTokens: number; totalTokens: number } | null;
  /** AGENT_STEP: the calls the model asked for, in its order (arguments as the model wrote them). */
  calls: readonly { callId: string; tool: string; arguments: string }[];
  /** TOOL_CALLED, TOOL_RESULT. */
  callId: string | null;
  tool: string | null;
  /** TOOL_CALLED: an object, or the model's text when it was not one. */
  arguments: unknown;
  /** TOOL_RESULT: false when the call failed. */
  ok: boolean | null;
  /** TOOL_RESULT: at most 200 characters of the result, or `CODE: message`. */
  summary: string | null;
}
