import type { HumanTask as HumanTaskRow } from "../../generated/prisma/client.js";
import type { HumanActionObject } from "../run/index.js";
import type { HumanTaskObject } from "./human-task.type.js";

export function toHumanTaskObject(row: HumanTaskRow): HumanTaskObject {
  return {
    id: row.id,
    runId: row.runId,
    workflowId: row.workflowId,
    nodeId: row.nodeId,
    invocation: row.invocation,
    title: row.title,
    instructions: row.instructions,
    actions: actionsOf(row.actions),
    form: row.form,
    input: row.input,
    editable: row.editable,
    status: row.status,
    assignee: row.assignee,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    completedAt: row.completedAt,
    completedBy: row.completedBy,
    action: row.action,
    data: row.data,
    comment: row.comment,
  };
}

/** The stored `[{id, label?}]` (written from the engine's NODE_WAITING, so well-formed). */
export function actionsOf(value: unknown): HumanActionObject[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry: { id?: unknown; label?: unknown }) =>
    typeof entry?.id === "string" ? [{ id: entry.id, label: typeof entry.label === "string" ? entry.label : null }] : [],
  );
}
