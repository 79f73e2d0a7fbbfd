import type { Trigger as TriggerRow, TriggerFiring as FiringRow } from "../../generated/prisma/client.js";
import type { StoredMapping } from "./trigger-input.validation.js";
import type { TriggerFiringObject, TriggerObject } from "./trigger.type.js";

/** Prisma rows → GraphQL objects. The sealed secret never leaves the module. */

export function storedMappings(json: unknown): StoredMapping[] {
  if (!Array.isArray(json)) return [];
  return json.flatMap((entry) => {
    const { nodeId, from } = (entry ?? {}) as { nodeId?: unknown; from?: unknown };
    return typeof nodeId === "string" && typeof from === "string" ? [{ nodeId, from }] : [];
  });
}

export function toTriggerObject(row: TriggerRow, nextTickAt: Date | null = null): TriggerObject {
  return {
    id: row.id,
    workflowId: row.workflowId,
    kind: row.kind,
    enabled: row.enabled,
    version: row.version,
    inputs: storedMappings(row.inputs),
    mode: row.mode,
    timeoutMs: row.timeoutMs,
    cron: row.cron,
    timezone: row.timezone,
    overlap: row.overlap,
    catchUp: row.catchUp,
    lastFiredAt: row.lastFiredAt,
    nextTickAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function toFiringObject(row: FiringRow): TriggerFiringObject {
  const error = row.error && typeof row.error === "object" && !Array.isArray(row.error) ? (row.error as Record<string, unknown>) : null;
  return { id: row.id, status: row.status, runId: row.runId, key: row.key, error, firedAt: row.firedAt };
}
