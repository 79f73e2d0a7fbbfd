import { randomBytes } from "node:crypto";
import type { Prisma, Trigger as TriggerRow } from "../../generated/prisma/client.js";
import { notFoundError, userError, type UserError } from "../../errors/user-error.type.js";
import { failure, success, type Outcome } from "../../errors/outcome.js";
import type { SecretBox } from "../../secrets/secret-box.js";
import type { ServiceDeps } from "../../service-deps.js";
import { isUuid } from "../common/uuid.js";
import { checkMappings, checkSchedule, checkTimeout, checkVersion, TRIGGER_LIMITS } from "./trigger-input.validation.js";
import type { CreateScheduleTriggerInput, CreateWebhookTriggerInput, UpdateTriggerInput } from "./trigger.input.js";
import { toFiringObject, toTriggerObject } from "./trigger.mapper.js";
import type { TriggerFiringObject, TriggerObject } from "./trigger.type.js";
import type { TriggerScheduler } from "./schedule/trigger-scheduler.js";

export interface CreatedWebhook {
  trigger: TriggerObject;
  /** The signing secret, returned this once. */
  secret: string;
}

/** Most firings one `firings` read returns. */
export const MAX_FIRINGS_PER_READ = 100;

/**
 * Triggers of a workflow: create, list, change, delete (SPEC-V3 §5). Webhook secrets are made here and
 * stored sealed (secret-box.ts); schedules are handed to the scheduler on every change.
 */
export class TriggerService {
  readonly #db: Prisma.TransactionClient & Pick<ServiceDeps["db"], "$transaction">;

  /** WEFT_PUBLIC_URL: the base of webhook URLs, when set. */
  readonly publicUrl: string | null;

  constructor(
    deps: Pick<ServiceDeps, "db" | "env">,
    private readonly box: SecretBox | null,
    readonly scheduler: TriggerScheduler,
  ) {
    this.#db = deps.db;
    this.publicUrl = deps.env.WEFT_PUBLIC_URL?.replace(/\/+$/, "") ?? null;
  }

  async createWebhook(workflowId: string, input: CreateWebhookTriggerInput): Promise<Outcome<CreatedWebhook>> {
    if (!this.box) {
      return failure(userError("SECRET_KEY_REQUIRED", "webhooks need the server's secret key to store their signing secrets: set WEFT_SECRET_KEY"));
    }
    const { mappings, errors } = checkMappings(input.inputs ?? [], ["input", "inputs"]);
    const timeoutMs = input.timeoutMs ?? TRIGGER_LIMITS.defaultTimeoutMs;
    errors.push(...checkTimeout(timeoutMs, ["input", "timeoutMs"]), ...checkVersion(input.version ?? null, ["input", "version"]));
    if (errors.length > 0) return failure(...errors);
    const refused = await this.#checkWorkflow(workflowId, input.version ?? null);
    if (refused.length > 0) return failure(...refused);
    const secret = `whsec_${randomBytes(32).toString("base64url")}`;
    const row = await this.#db.trigger.create({
      data: {
        workflowId, kind: "WEBHOOK", enabled: input.enabled ?? true, version: input.version ?? null, inputs: mappings as unknown as Prisma.InputJsonArray,
        mode: input.mode ?? "ASYNC", timeoutMs, secret: this.box.seal(secret),
      },
    });
    return success({ trigger: toTriggerObject(row), secret });
  }

  async createSchedule(workflowId: string, input: CreateScheduleTriggerInput): Promise<Outcome<TriggerObject>> {
    const { mappings, errors } = checkMappings(input.inputs ?? [], ["input", "inputs"]);
    const timezone = input.timezone ?? "UTC";
    errors.push(...checkSchedule(input.cron, timezone, ["input"]), ...checkVersion(input.version ?? null, ["input", "version"]));
    if (errors.length > 0) return failure(...errors);
    const refused = await this.#checkWorkflow(workflowId, input.version ?? null);
    if (refused.length > 0) return failure(...refused);
    const row = await this.#db.trigger.create({
      data: {
        workflowId, kind: "SCHEDULE", enabled: input.enabled ?? true, version: input.version ?? null, inputs: mappings as unknown as Prisma.InputJsonArray,
        cron: input.cron.trim(), timezone, overlap: input.overlap ?? "SKIP", catchUp: input.catchUp ?? "NONE",
        // Ticks before the schedule existed were not missed.
        lastTickAt: new Date(),
      },
    });
    await this.scheduler.sync(row);
    return success(this.#object(row));
  }

  async list(workflowId: string): Promise<TriggerObject[]> {
    if (!isUuid(workflowId)) return [];
    const rows = await this.#db.trigger.findMany({ where: { workflowId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    return rows.map((row) => this.#object(row));
  }

  async get(id: string): Promise<TriggerObject | null> {
    const row = isUuid(id) ? await this.#db.trigger.findUnique({ where: { id } }) : null;
    return row && this.#object(row);
  }

  async update(id: string, input: UpdateTriggerInput): Promise<Outcome<TriggerObject>> {
    const row = isUuid(id) ? await this.#db.trigger.findUnique({ where: { id } }) : null;
    if (!row) return failure(notFoundError("trigger", id));
    const checked = await this.#checkUpdate(row, input);
    if (!checked.ok) return checked;
    const data = checked.value;
    // Enabling again: ticks while disabled were not missed.
    if (row.kind === "SCHEDULE" && input.enabled === true && !row.enabled) data.lastTickAt = new Date();
    const updated = await this.#db.trigger.update({ where: { id }, data });
    if (updated.kind === "SCHEDULE") await this.scheduler.sync(updated);
    return success(this.#object(updated));
  }

  async delete(id: string): Promise<Outcome<string>> {
    const row = isUuid(id) ? await this.#db.trigger.findUnique({ where: { id }, select: { id: true, kind: true } }) : null;
    if (!row) return failure(notFoundError("trigger", id));
    await this.#db.trigger.deleteMany({ where: { id } });
    if (row.kind === "SCHEDULE") await this.scheduler.remove(id);
    return success(id);
  }

  /** The latest firings, newest first. */
  async firings(triggerId: string, first: number): Promise<TriggerFiringObject[]> {
    const take = Math.min(Math.max(1, Math.trunc(first)), MAX_FIRINGS_PER_READ);
    const rows = await this.#db.triggerFiring.findMany({ where: { triggerId }, orderBy: [{ firedAt: "desc" }, { key: { sort: "desc", nulls: "last" } }, { id: "desc" }], take });
    return rows.map(toFiringObject);
  }

  #object(row: TriggerRow): TriggerObject {
    return toTriggerObject(row, row.kind === "SCHEDULE" && row.enabled ? this.scheduler.nextTick(row) : null);
  }

  async #checkWorkflow(workflowId: string, version: number | null): Promise<UserError[]> {
    const workflow = isUuid(workflowId) ? await this.#db.workflow.findUnique({ where: { id: workflowId }, select: { id: true, _count: { select: { triggers: true } } } }) : null;
    if (!workflow) return [notFoundError("workflow", workflowId, ["workflowId"])];
    if (workflow._count.triggers >= TRIGGER_LIMITS.maxPerWorkflow) {
      return [userError("LIMIT_EXCEEDED", `a workflow has at most ${TRIGGER_LIMITS.maxPerWorkflow} triggers`, { path: ["workflowId"] })];
    }
    return version === null ? [] : this.#checkPublished(workflowId, version, ["input", "version"]);
  }

  async #checkPublished(workflowId: string, version: number, path: string[]): Promise<UserError[]> {
    const found = await this.#db.workflowVersion.findUnique({ where: { workflowId_number: { workflowId, number: version } }, select: { id: true } });
    return found ? [] : [userError("NOT_FOUND", `workflow "${workflowId}" has no published version ${version}`, { path })];
  }

  /** The columns an update changes; fields of the other kind are refused. */
  async #checkUpdate(row: TriggerRow, input: UpdateTriggerInput): Promise<Outcome<Prisma.TriggerUpdateInput>> {
    const errors: UserError[] = [];
    const data: Prisma.TriggerUpdateInput = {};
    const other = row.kind === "WEBHOOK" ? (["cron", "timezone", "overlap", "catchUp"] as const) : (["mode", "timeoutMs"] as const);
    for (const field of other) {
      if (input[field] !== undefined && input[field] !== null) errors.push(userError("VALIDATION_FAILED", `${field} does not apply to a ${row.kind.toLowerCase()} trigger`, { path: ["input", field] }));
    }
    if (input.enabled !== undefined && input.enabled !== null) data.enabled = input.enabled;
    if (input.version !== undefined && input.version !== null) {
      const version = input.version === 0 ? null : input.version;
      errors.push(...checkVersion(version, ["input", "version"]));
      if (version !== null && errors.length === 0) errors.push(...(await this.#checkPublished(row.workflowId, version, ["input", "version"])));
      data.version = version;
    }
    if (input.inputs) {
      const checked = checkMappings(input.inputs, ["input", "inputs"]);
      errors.push(...checked.errors);
      data.inputs = checked.mappings as unknown as Prisma.InputJsonArray;
    }
    if (input.mode) data.mode = input.mode;
    if (input.timeoutMs !== undefined && input.timeoutMs !== null) {
      errors.push(...checkTimeout(input.timeoutMs, ["input", "timeoutMs"]));
      data.timeoutMs = input.timeoutMs;
    }
    if (row.kind === "SCHEDULE" && (input.cron || input.timezone)) {
      const cron = input.cron?.trim() ?? row.cron ?? "";
      const timezone = input.timezone ?? row.timezone ?? "UTC";
      errors.push(...checkSchedule(cron, timezone, ["input"]));
      Object.assign(data, { cron, timezone });
    }
    if (input.overlap) data.overlap = input.overlap;
    if (input.catchUp) data.catchUp = input.catchUp;
    return errors.length > 0 ? failure(...errors) : success(data);
  }
}
