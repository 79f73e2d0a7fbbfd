import type { TriggerVariables } from "@weft/engine";
import type { PrismaClient, Trigger as TriggerRow } from "../../generated/prisma/client.js";
import type { UserError } from "../../errors/user-error.type.js";
import type { Logger } from "../../logger.js";
import type { SecretBox } from "../../secrets/secret-box.js";
import { runResultValue, type RunService, type TriggerFiringLink } from "../run/index.js";
import { ACTIVE_RUN_STATUSES, isActiveRunStatus } from "../common/run-status.js";
import { isUuid } from "../common/uuid.js";
import { claimFiring, findWebhookTrigger, recordFiring, settleFiring, type FiringOutcome, type WebhookTrigger } from "./trigger-firing.store.js";
import { mapInputs } from "./trigger-mapping.js";
import { storedMappings } from "./trigger.mapper.js";
import { readIdempotencyKey, readWebhookRequest, signatureMatches } from "./webhook-request.js";
import { planTicks } from "./schedule/tick-plan.js";

/** A webhook call as the HTTP layer hands it over: the raw body and what the mapping and checks read. */
export interface WebhookCall {
  triggerId: string;
  body: Buffer;
  contentType: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  search: string;
  signature: string | undefined;
  idempotencyKey: string | undefined;
}

/** What the HTTP layer answers: its status, JSON body and any headers (Retry-After on a 429). */
export interface WebhookAnswer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** What firing a trigger reads of it (a webhook's call also knows its version: WebhookTrigger.pinned). */
type FiringTrigger = Pick<TriggerRow, "id" | "kind" | "workflowId" | "version" | "mode" | "timeoutMs"> & { pinned?: WebhookTrigger["pinned"] };

/** The API's error shape (as GraphQL and http-errors.ts answer), so a client reads one format. */
const refusal = (status: number, code: string, message: string): WebhookAnswer => ({ status, body: { errors: [{ message, extensions: { code } }] } });

/**
 * Fires triggers: a webhook call (checked, mapped, started, answered) or a schedule's tick. A refusal
 * before the run starts (unknown trigger, bad signature, a body or mapping that cannot be read) stores
 * nothing; a run the workflow refuses is recorded as a FAILED firing, so its trigger's page says why.
 */
export class TriggerFiringService {
  constructor(
    private readonly db: PrismaClient,
    private readonly runs: RunService,
    private readonly box: SecretBox | null,
    private readonly logger: Logger,
  ) {}

  async webhook(call: WebhookCall): Promise<WebhookAnswer> {
    const row = isUuid(call.triggerId) ? await findWebhookTrigger(this.db, call.triggerId) : null;
    if (!row || row.kind !== "WEBHOOK" || !row.enabled || row.secret === null) return refusal(404, "NOT_FOUND", `no enabled webhook "${call.triggerId.slice(0, 80)}"`);
    if (!this.box) return refusal(503, "SECRET_KEY_REQUIRED", "the server has no secret key (WEFT_SECRET_KEY) to check signatures with");
    if (call.signature === undefined) return refusal(401, "SIGNATURE_INVALID", "the X-Weft-Signature header is missing");
    if (!signatureMatches(this.box.open(row.secret), call.body, call.signature)) {
      return refusal(401, "SIGNATURE_INVALID", "X-Weft-Signature is not sha256=<hex HMAC-SHA256 of the body with the webhook's secret>");
    }
    const key = readIdempotencyKey(call.idempotencyKey);
    if (!key.ok) return refusal(400, "BAD_REQUEST", key.message);
    const parsed = readWebhookRequest(call.body, call.contentType, call.headers, call.search, this.runs.limits.maxValueDepth);
    if (!parsed.ok) return refusal(parsed.code === "BAD_REQUEST" ? 400 : 422, parsed.code, parsed.message);
    const contents = mapInputs(storedMappings(row.inputs), parsed.variables, this.runs.limits);
    if (!contents.ok) return { status: 422, body: { errors: contents.errors.map(asHttpError) } };
    if (key.key === null) {
      // A run that starts records its firing in its own insert; a refusal is recorded here.
      const started = await this.#start(row, contents.value, `trigger:${row.id}`, { recordFiring: true });
      if (!started.runId) await recordFiring(this.db, row.id, started.outcome);
      return started.runId ? this.#answer(row, started.runId) : started.answer;
    }
    return this.#fireOnce(row, key.key, contents.value);
  }

  /** With an Idempotency-Key: the first call within 24 h starts the run; the others answer with it. */
  async #fireOnce(row: WebhookTrigger, key: string, contents: Record<string, string>): Promise<WebhookAnswer> {
    const claim = await claimFiring(this.db, row.id, key, true);
    if (!claim.claimed) {
      if (claim.existing?.runId) return this.#answer(row, claim.existing.runId);
      return refusal(409, "CONFLICT", "a call with this Idempotency-Key is still being handled; retry shortly");
    }
    const started = await this.#start(row, contents, `trigger:${row.id}`, { firingId: claim.firingId });
    await settleFiring(this.db, claim.firingId, started.outcome);
    return started.runId ? this.#answer(row, started.runId) : started.answer;
  }

  /** Starts the trigger's run; `caller` (a webhook's trigger) spends a run budget first, and a refusal answers 429 with Retry-After. */
  async #start(row: FiringTrigger, contents: Record<string, string>, caller: string | null, firing: TriggerFiringLink): Promise<{ runId: string | null; outcome: FiringOutcome; answer: WebhookAnswer }> {
    const limited = caller === null ? null : await this.runs.spendRunBudget(caller);
    if (limited) {
      const answer = { status: 429, body: { errors: [asHttpError(limited.error)] }, headers: { "Retry-After": String(limited.retryAfterSeconds) } };
      return { runId: null, outcome: { status: "FAILED", runId: null, error: plainError(limited.error) }, answer };
    }
    const trigger = { id: row.id, kind: row.kind, workflowId: row.workflowId, version: row.version, ...("pinned" in row && row.pinned ? { pinned: row.pinned } : {}) };
    const outcome = await this.runs.startForTrigger(trigger, contents, firing);
    if (outcome.ok) return { runId: outcome.value.id, outcome: { status: "STARTED", runId: outcome.value.id, error: null }, answer: { status: 202, body: { runId: outcome.value.id } } };
    const first = outcome.errors[0]!;
    return { runId: null, outcome: { status: "FAILED", runId: null, error: plainError(first) }, answer: { status: 422, body: { errors: outcome.errors.map(asHttpError) } } };
  }

  /**
   * ASYNC: 202 {runId}. SYNC: 200 {runId, status, output} once the run ended, 202 {runId, status} when
   * timeoutMs passes first or the run waits for a person (WAITING: it has not ended).
   */
  async #answer(row: FiringTrigger, runId: string): Promise<WebhookAnswer> {
    if (row.mode !== "SYNC") return { status: 202, body: { runId } };
    const run = await this.runs.awaitEnd(runId, row.timeoutMs ?? 30_000);
    if (!run || isActiveRunStatus(run.status)) return { status: 202, body: { runId, status: run?.status ?? "QUEUED" } };
    return { status: 200, body: { runId, status: run.status, output: runResultValue(run.result), ...(run.error ? { error: run.error } : {}) } };
  }

  /**
   * The ticks of a schedule due up to `upTo` (a queued tick, or now at start-up), from whichever process
   * sees them: tick-plan.ts decides which fire and which were missed, and the claim on `tick:<time>` lets
   * each through once however many processes handle it.
   */
  async tick(triggerId: string, upTo: Date, now = new Date()): Promise<void> {
    const row = await this.db.trigger.findUnique({ where: { id: triggerId } });
    if (!row || row.kind !== "SCHEDULE" || !row.enabled || !row.cron) return;
    const plan = planTicks(row.cron, row.timezone ?? "UTC", row.lastTickAt, upTo, now, row.catchUp ?? "NONE");
    if (plan.missed) {
      const claim = await claimFiring(this.db, row.id, tickKey(plan.missed), false, now);
      if (claim.claimed) await settleFiring(this.db, claim.firingId, { status: "SKIPPED", runId: null, error: { code: "TICK_MISSED", message: "no process ran this tick within a minute of its time" } });
    }
    for (const tick of plan.fire) {
      const claim = await claimFiring(this.db, row.id, tickKey(tick), false, now);
      if (!claim.claimed) continue;
      const outcome = await this.#fireTick(row, tick, claim.firingId);
      await settleFiring(this.db, claim.firingId, outcome);
      if (outcome.status !== "STARTED") this.logger.info({ triggerId, tick, status: outcome.status, code: outcome.error?.code }, "schedule tick did not start a run");
    }
    const handled = [...plan.fire, ...(plan.missed ? [plan.missed] : [])].map((tick) => tick.getTime());
    if (handled.length > 0) await this.#advance(row.id, new Date(Math.max(...handled)));
  }

  async #fireTick(row: TriggerRow, tick: Date, firingId: string): Promise<FiringOutcome> {
    if (row.overlap !== "ALLOW") {
      // Ticks of one schedule are seconds apart, so a run this check misses (not yet stored) is rare and harmless.
      const active = await this.db.run.count({ where: { triggerId: row.id, status: { in: [...ACTIVE_RUN_STATUSES] } } });
      if (active > 0) return { status: "SKIPPED", runId: null, error: { code: "OVERLAP_SKIPPED", message: "a run of this schedule was still queued or running" } };
    }
    const variables: TriggerVariables = { body: { tick: tick.toISOString() }, headers: {}, query: {} };
    const contents = mapInputs(storedMappings(row.inputs), variables, this.runs.limits);
    if (!contents.ok) return { status: "FAILED", runId: null, error: plainError(contents.errors[0]!) };
    return (await this.#start(row, contents.value, null, { firingId })).outcome;
  }

  /** Records `tick` as handled (never moving back), so a start-up does not catch it up again. */
  async #advance(triggerId: string, tick: Date): Promise<void> {
    await this.db.trigger.updateMany({ where: { id: triggerId, OR: [{ lastTickAt: null }, { lastTickAt: { lt: tick } }] }, data: { lastTickAt: tick } });
  }
}

function tickKey(tick: Date): string {
  return `tick:${tick.toISOString()}`;
}

function plainError(error: UserError): { code: string; message: string } {
  return { code: error.code, message: error.message };
}

function asHttpError(error: UserError): { message: string; extensions: Record<string, unknown> } {
  const extensions: Record<string, unknown> = { code: error.code };
  if (error.field) extensions.field = error.field;
  if (error.path) extensions.path = error.path;
  if (error.nodeIds.length > 0) extensions.nodeIds = error.nodeIds;
  return { message: error.message, extensions };
}
