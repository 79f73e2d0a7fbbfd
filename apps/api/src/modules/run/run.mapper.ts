import type { NodeRun as NodeRunRow, Run as RunRow } from "../../generated/prisma/client.js";
import type { RunEventMessage } from "../../pubsub.js";
import type { NodeRunObject, RunErrorObject, RunEventObject, RunObject } from "./run.type.js";
import { encodeNodeRunCursor } from "./node-run-page.js";

/** Prisma rows and stored event messages → GraphQL objects. */

export function toRunError(json: unknown): RunErrorObject | null {
  if (!json || typeof json !== "object") return null;
  const { code, message } = json as { code?: unknown; message?: unknown };
  return { code: typeof code === "string" ? code : "UNKNOWN", message: typeof message === "string" ? message : "" };
}

function duration(start: Date | null, end: Date | null): number | null {
  return start && end ? end.getTime() - start.getTime() : null;
}

function asObject(json: unknown): Record<string, unknown> {
  return json && typeof json === "object" && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
}

/** The name frozen in the run's snapshot (a PreparedRun: its `workflow` has one). */
function snapshotWorkflowName(snapshot: unknown): string {
  const name = asObject(asObject(snapshot)["workflow"])["name"];
  return typeof name === "string" ? name : "";
}

export function toRunObject(row: RunRow): RunObject {
  return {
    id: row.id,
    workflowId: row.workflowId,
    workflowName: snapshotWorkflowName(row.snapshot),
    status: row.status,
    version: row.versionNumber,
    draft: row.versionId === null,
    rerunOfId: row.rerunOfId,
    threadId: row.threadId,
    trigger: row.triggerId !== null && row.triggerKind !== null ? { id: row.triggerId, kind: row.triggerKind } : null,
    request: asObject(row.request),
    snapshot: asObject(row.snapshot),
    result: row.result,
    error: toRunError(row.error),
    state: row.state && typeof row.state === "object" && !Array.isArray(row.state) ? asObject(row.state) : null,
    promptTokens: row.promptTokens,
    completionTokens: row.completionTokens,
    totalTokens: row.totalTokens,
    lastSeq: row.lastSeq,
    createdAt: row.createdAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    durationMs: duration(row.startedAt, row.finishedAt),
  };
}

export function toNodeRunObject(row: NodeRunRow): NodeRunObject {
  return {
    nodeId: row.nodeKey,
    invocation: row.invocation,
    nodeType: row.nodeType,
    cursor: encodeNodeRunCursor(row),
    status: row.status,
    inputs: Array.isArray(row.inputs) ? row.inputs.map(String) : [],
    renderedPrompt: row.renderedPrompt,
    context: row.context ?? [],
    store: row.store,
    rawReply: row.rawReply,
    description: row.description,
    output: row.output,
    value: row.value ?? null,
    error: toRunError(row.error),
    provider: row.provider,
    model: row.model,
    promptTokens: row.promptTokens,
    completionTokens: row.completionTokens,
    totalTokens: row.totalTokens,
    retries: row.retries,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    durationMs: duration(row.startedAt, row.finishedAt),
  };
}

export function toRunEventObject(message: RunEventMessage): RunEventObject {
  const payload = message.payload;
  const text = (key: string) => (typeof payload[key] === "string" ? (payload[key] as string) : null);
  const int = (key: string) => (Number.isInteger(payload[key]) ? (payload[key] as number) : null);
  const texts = (key: string) => (Array.isArray(payload[key]) ? (payload[key] as unknown[]).map(String) : null);
  const state = payload["state"];
  return {
    runId: message.runId,
    seq: message.seq,
    type: message.type,
    at: new Date(message.at),
    nodeId: message.nodeId,
    description: text("description"),
    output: message.type === "RUN_COMPLETED" ? text("result") : text("output"),
    text: message.type === "WARNING" ? text("message") : text("text"),
    error: toRunError(payload["error"]),
    nodeIds: message.type === "RUN_STARTED" && Array.isArray(payload["nodeIds"]) ? payload["nodeIds"].map(String) : null,
    code: message.type === "WARNING" ? text("code") : null,
    reason: message.type === "NODE_SKIPPED" || message.type === "RUN_CANCELLED" ? text("reason") : null,
    invocation: text("invocation"),
    value: payload["value"] ?? null,
    ports: texts("ports"),
    skipped: texts("skipped"),
    loopId: text("loopId"),
    iteration: int("iteration"),
    max: int("max"),
    feedback: text("feedback"),
    exit: message.type === "LOOP_EXHAUSTED" ? text("exit") : null,
    items: int("items"),
    index: int("index"),
    attempt: message.type === "RUN_RESUMED" ? int("attempt") : null,
    channel: text("channel"),
    similarity: typeof payload["similarity"] === "number" ? payload["similarity"] : null,
    state: state && typeof state === "object" && !Array.isArray(state) ? (state as Record<string, unknown>) : null,
    payload,
  };
}
