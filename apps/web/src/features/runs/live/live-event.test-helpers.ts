import type { LiveEvent } from "./run-projection";

const text = (value: unknown): string | null => (typeof value === "string" ? value : null);

/**
 * A live event from the engine's payload, with the fields toLiveEvent (run-event-stream.ts) reads from
 * the event's kind, so tests can write events as the engine emits them.
 */
export function liveEvent(seq: number, type: string, payload: Record<string, unknown>, nodeId: string | null = null, at = "2026-11-21T10:00:00.000Z"): LiveEvent {
  const error = payload.error as { code?: unknown; message?: unknown } | undefined;
  return {
    seq,
    type,
    at,
    nodeId: nodeId ?? text(payload.nodeId),
    nodeIds: type === "RUN_STARTED" && Array.isArray(payload.nodeIds) ? payload.nodeIds.map(String) : null,
    description: text(payload.description),
    output: type === "RUN_COMPLETED" ? text(payload.result) : text(payload.output),
    text: type === "WARNING" ? text(payload.message) : text(payload.text),
    code: type === "WARNING" ? text(payload.code) : null,
    reason: type === "NODE_SKIPPED" || type === "RUN_CANCELLED" ? text(payload.reason) : null,
    error: error ? { code: text(error.code) ?? "UNKNOWN", message: text(error.message) ?? "" } : null,
    attempt: type === "RUN_RESUMED" && typeof payload.attempt === "number" ? payload.attempt : null,
    pipeline: pipelineOf(payload),
    agent: agentOf(type, payload),
  };
}

/** An agent event's fields (AGENT_STEP's calls as the model wrote their arguments: JSON text). */
function agentOf(type: string, payload: Record<string, unknown>): LiveEvent["agent"] {
  if (type !== "AGENT_STEP" && type !== "TOOL_CALLED" && type !== "TOOL_RESULT") return null;
  const calls = Array.isArray(payload.calls) ? (payload.calls as { id?: unknown; callId?: unknown; name?: unknown; tool?: unknown; arguments?: unknown }[]) : [];
  return {
    step: num(payload.step),
    text: type === "AGENT_STEP" ? text(payload.text) : null,
    finishReason: text(payload.finishReason),
    usage: (payload.usage as { promptTokens: number; completionTokens: number; totalTokens: number } | undefined) ?? null,
    calls: calls.map((call) => ({ callId: String(call.callId ?? call.id), tool: String(call.tool ?? call.name), arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments ?? {}) })),
    callId: text(payload.callId),
    tool: text(payload.tool),
    arguments: payload.arguments ?? null,
    ok: typeof payload.ok === "boolean" ? payload.ok : null,
    summary: text(payload.summary),
  };
}

const num = (value: unknown): number | null => (typeof value === "number" ? value : null);
const texts = (value: unknown): string[] | null => (Array.isArray(value) ? value.map(String) : null);

/** The weft.workflow/v2 fields, as the API lifts them, when the payload has any. */
function pipelineOf(payload: Record<string, unknown>): LiveEvent["pipeline"] {
  const keys = ["invocation", "ports", "loopId", "items", "index", "similarity"];
  if (!keys.some((key) => key in payload)) return null;
  return {
    invocation: text(payload.invocation) ?? "",
    ports: texts(payload.ports),
    skipped: texts(payload.skipped),
    loopId: text(payload.loopId),
    iteration: num(payload.iteration),
    max: num(payload.max),
    feedback: text(payload.feedback),
    exit: text(payload.exit),
    items: num(payload.items),
    index: num(payload.index),
    similarity: num(payload.similarity),
    value: payload.value ?? null,
  };
}
