import { compileTriggerExpression } from "@weft/engine";
import { Cron } from "croner";
import { userError, type UserError } from "../../errors/user-error.type.js";
import { WORKFLOW_INPUT_LIMITS } from "../workflow/index.js";
import type { TriggerInputMapping } from "./trigger.input.js";

/** Checks made before a trigger is stored or changed: refused input changes nothing. */

export const TRIGGER_LIMITS = {
  maxInputs: 100,
  maxExpressionLength: 4_000,
  maxCronLength: 120,
  /** SYNC webhooks: how long a call may wait for its run. */
  maxTimeoutMs: 120_000,
  defaultTimeoutMs: 30_000,
  /** Triggers per workflow. */
  maxPerWorkflow: 50,
} as const;

export interface StoredMapping {
  nodeId: string;
  from: string;
}

/** The mappings as stored, or the reasons they are refused (EXPRESSION_INVALID with the field and offset). */
export function checkMappings(inputs: readonly TriggerInputMapping[], path: string[]): { mappings: StoredMapping[]; errors: UserError[] } {
  const errors: UserError[] = [];
  if (inputs.length > TRIGGER_LIMITS.maxInputs) {
    return { mappings: [], errors: [userError("LIMIT_EXCEEDED", `at most ${TRIGGER_LIMITS.maxInputs} inputs, got ${inputs.length}`, { path })] };
  }
  const seen = new Set<string>();
  inputs.forEach((input, index) => {
    const at = [...path, String(index)];
    if (input.nodeId.trim() === "" || input.nodeId.length > WORKFLOW_INPUT_LIMITS.maxIdLength) {
      errors.push(userError("VALIDATION_FAILED", `nodeId must be 1 to ${WORKFLOW_INPUT_LIMITS.maxIdLength} characters`, { path: [...at, "nodeId"] }));
    } else if (seen.has(input.nodeId)) {
      errors.push(userError("VALIDATION_FAILED", `node "${input.nodeId.slice(0, 80)}" is mapped twice`, { path: [...at, "nodeId"], nodeIds: [input.nodeId] }));
    }
    seen.add(input.nodeId);
    if (input.from.length > TRIGGER_LIMITS.maxExpressionLength) {
      errors.push(userError("LIMIT_EXCEEDED", `the expression is longer than ${TRIGGER_LIMITS.maxExpressionLength} characters`, { path: [...at, "from"] }));
      return;
    }
    const compiled = compileTriggerExpression(input.from);
    if (!compiled.ok) {
      errors.push(userError("EXPRESSION_INVALID", compiled.message, { path: [...at, "from"], field: `inputs[${index}].from`, position: compiled.position, nodeIds: [input.nodeId] }));
    }
  });
  return { mappings: inputs.map(({ nodeId, from }) => ({ nodeId, from })), errors };
}

export function checkTimeout(timeoutMs: number, path: string[]): UserError[] {
  if (Number.isInteger(timeoutMs) && timeoutMs >= 1 && timeoutMs <= TRIGGER_LIMITS.maxTimeoutMs) return [];
  return [userError("VALIDATION_FAILED", `timeoutMs must be 1 to ${TRIGGER_LIMITS.maxTimeoutMs}`, { path })];
}

export function checkVersion(version: number | null, path: string[]): UserError[] {
  if (version === null || (Number.isSafeInteger(version) && version >= 1)) return [];
  return [userError("VALIDATION_FAILED", "version must be a version number, 1 or more", { path })];
}

/** A schedule's cron and time zone: 5 fields, or 6 with seconds first (CRON_INVALID / TIMEZONE_INVALID). */
export function checkSchedule(cron: string, timezone: string, path: string[]): UserError[] {
  const errors: UserError[] = [];
  if (!isTimeZone(timezone)) errors.push(userError("TIMEZONE_INVALID", `"${timezone.slice(0, 80)}" is not an IANA time zone (such as Asia/Seoul or UTC)`, { path: [...path, "timezone"] }));
  const fields = cron.trim().split(/\s+/).length;
  if (cron.length > TRIGGER_LIMITS.maxCronLength || fields < 5 || fields > 6) {
    errors.push(userError("CRON_INVALID", "cron must have 5 fields (minute hour day month weekday) or 6 (seconds first)", { path: [...path, "cron"] }));
    return errors;
  }
  try {
    const schedule = new Cron(cron, { paused: true, mode: "5-or-6-parts", ...(errors.length === 0 ? { timezone } : {}) });
    if (schedule.nextRun() === null) errors.push(userError("CRON_INVALID", "this cron expression never fires", { path: [...path, "cron"] }));
  } catch (error) {
    errors.push(userError("CRON_INVALID", error instanceof Error ? error.message : String(error), { path: [...path, "cron"] }));
  }
  return errors;
}

export function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
