import { isJsonObject } from "@weft/engine";
import type { NodeRun as NodeRunRow, Run as RunRow } from "../../generated/prisma/client.js";
import type { NodeRunObject, RunErrorObject, RunObject } from "./run.type.js";
import { encodeNodeRunCursor } from "./node-run-page.js";

/** Prisma rows → GraphQL objects (stored event messages: run-event.mapper.ts). */

export function toRunError(json: unknown): RunErrorObject | null {
  if (!json || typeof json !== "object") return null;
  const { code, message } = json as { code?: unknown; message?: unknown };
  return { code: typeof code === "string" ? code : "UNKNOWN", message: typeof message === "string" ? message : "" };
}

function duration(start: Date | null, end: Date | null): number | null {
  return start && end ? end.getTime() - start.getTime() : null;
}

function asObject(json: unknown): Record<string, unknown> {
  return isJsonObject(json) ? json : {};
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
    experimentId: row.experimentId,
    trigger: row.triggerId !== null && row.triggerKind !== null ? { id: row.triggerId, kind: row.triggerKind } : null,
    request: asObject(row.request),
    snapshot: asObject(row.snapshot),
    result: row.result,
    error: toRunError(row.error),
    state: isJsonObject(row.state) ? row.state : null,
    promptTokens: row.promptTokens,
    completionTokens: row.completionTokens,
    totalTokens: row.totalTokens,
    costUsd: row.costUsd,
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
    costUsd: row.costUsd,
    retries: row.retries,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    durationMs: duration(row.startedAt, row.finishedAt),
  };
}
