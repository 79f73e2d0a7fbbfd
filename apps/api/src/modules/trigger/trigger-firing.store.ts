import { randomUUID } from "node:crypto";
import { Prisma, type PrismaClient, type Trigger as TriggerRow, type TriggerFiring as FiringRow } from "../../generated/prisma/client.js";
import { planned } from "../../db/planned.js";
import type { TriggerFiringStatus } from "./trigger.type.js";

/**
 * The statements that make a firing happen once. A firing with a key (a webhook's Idempotency-Key, a
 * schedule's `tick:<time>`) is claimed before its run is started: the unique (triggerId, key) lets one
 * caller in, whichever process it runs in. Each statement also moves the trigger's lastFiredAt.
 */

/** What a webhook call reads of its trigger, with the published version its run would execute (below). */
export type WebhookTrigger = Pick<TriggerRow, "id" | "workflowId" | "kind" | "enabled" | "version" | "inputs" | "mode" | "timeoutMs" | "secret"> & {
  /** The version the trigger names, else the latest published one; null when there is none (the run's start then decides: the draft, or a refusal). */
  pinned: { id: string; number: number } | null;
};

/**
 * The trigger and its version in one statement, on the path of every webhook call (the run's start would
 * otherwise read the version again). A version published between this read and the run's insert is not
 * seen, as if the call had come a moment earlier.
 */
export async function findWebhookTrigger(db: PrismaClient, triggerId: string): Promise<WebhookTrigger | null> {
  const [row] = await db.$queryRaw<(Omit<WebhookTrigger, "pinned"> & { pinnedId: string | null; pinnedNumber: number | null })[]>(
    planned(Prisma.sql`SELECT t."id", t."workflowId", t."kind"::text AS "kind", t."enabled", t."version", t."inputs", t."mode"::text AS "mode", t."timeoutMs", t."secret",
        v."id" AS "pinnedId", v."number" AS "pinnedNumber"
      FROM "Trigger" t LEFT JOIN LATERAL (
        SELECT v."id", v."number" FROM "WorkflowVersion" v WHERE v."workflowId" = t."workflowId" AND (t."version" IS NULL OR v."number" = t."version") ORDER BY v."number" DESC LIMIT 1
      ) v ON TRUE WHERE t."id" = ${triggerId}`),
  );
  if (!row) return null;
  const { pinnedId, pinnedNumber, ...trigger } = row;
  return { ...trigger, pinned: pinnedId !== null && pinnedNumber !== null ? { id: pinnedId, number: pinnedNumber } : null };
}

/** How long an Idempotency-Key names its first run (SPEC-V3 §5). */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * How long a claim may stay without its run before another process takes it over: claiming and storing
 * the run take milliseconds, so a claim this old was left by a process that died in between. Taking over
 * renames the claim, and the run's insert checks its claim in the same statement (NewRun.firingId), so a
 * claimant that was only slow stores nothing: a tick or key never gets two runs.
 */
export const CLAIM_LEASE_MS = 10_000;

export type Claim = { claimed: true; firingId: string } | { claimed: false; existing: FiringRow | null };

/**
 * Claims (triggerId, key). `retake`: a webhook key may be taken again when its firing is older than the
 * window or FAILED (a caller retrying after a refusal); a schedule's tick is not. Either is taken over
 * when its claim was abandoned (CLAIM_LEASE_MS). The firing starts STARTED with no run; the run's insert
 * links it and settle() records what came of it.
 */
export async function claimFiring(db: PrismaClient, triggerId: string, key: string, retake: boolean, now = new Date()): Promise<Claim> {
  const id = randomUUID();
  const expired = new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS).toISOString();
  const abandoned = new Date(now.getTime() - CLAIM_LEASE_MS).toISOString();
  const abandonedClaim = Prisma.sql`(f."status" = 'STARTED' AND f."runId" IS NULL AND f."firedAt" < ${abandoned}::timestamp(3))`;
  const condition = retake
    ? Prisma.sql`WHERE f."firedAt" < ${expired}::timestamp(3) OR f."status" = 'FAILED' OR ${abandonedClaim}`
    : Prisma.sql`WHERE ${abandonedClaim}`;
  const rows = await db.$queryRaw<{ id: string }[]>(
    planned(Prisma.sql`WITH claimed AS (
        INSERT INTO "TriggerFiring" AS f ("id", "triggerId", "key", "status", "firedAt")
        VALUES (${id}, ${triggerId}, ${key}, 'STARTED', ${now.toISOString()}::timestamp(3))
        ON CONFLICT ("triggerId", "key") DO UPDATE SET "id" = EXCLUDED."id", "status" = 'STARTED', "runId" = NULL, "error" = NULL, "firedAt" = EXCLUDED."firedAt"
        ${condition}
        RETURNING f."id"),
      touched AS (UPDATE "Trigger" SET "lastFiredAt" = ${now.toISOString()}::timestamp(3) WHERE "id" = ${triggerId} AND EXISTS (SELECT 1 FROM claimed))
      SELECT "id" FROM claimed`),
  );
  if (rows[0]) return { claimed: true, firingId: rows[0].id };
  const existing = await db.triggerFiring.findUnique({ where: { triggerId_key: { triggerId, key } } });
  return { claimed: false, existing };
}

export interface FiringOutcome {
  status: TriggerFiringStatus;
  runId: string | null;
  error: { code: string; message: string } | null;
}

/** What came of a claimed firing. */
export async function settleFiring(db: PrismaClient, firingId: string, outcome: FiringOutcome): Promise<void> {
  await db.$executeRaw(
    planned(Prisma.sql`UPDATE "TriggerFiring" SET "status" = ${outcome.status}::"TriggerFiringStatus", "runId" = ${outcome.runId}::text,
      "error" = ${outcome.error === null ? null : JSON.stringify(outcome.error)}::jsonb WHERE "id" = ${firingId}`),
  );
}

/** A firing without a key (a webhook call without Idempotency-Key), recorded once its outcome is known. */
export async function recordFiring(db: PrismaClient, triggerId: string, outcome: FiringOutcome, now = new Date()): Promise<void> {
  await db.$executeRaw(
    planned(Prisma.sql`WITH recorded AS (
        INSERT INTO "TriggerFiring" ("id", "triggerId", "status", "runId", "error", "firedAt")
        VALUES (${randomUUID()}, ${triggerId}, ${outcome.status}::"TriggerFiringStatus", ${outcome.runId}::text,
                ${outcome.error === null ? null : JSON.stringify(outcome.error)}::jsonb, ${now.toISOString()}::timestamp(3))
        RETURNING "triggerId")
      UPDATE "Trigger" SET "lastFiredAt" = ${now.toISOString()}::timestamp(3) WHERE "id" IN (SELECT "triggerId" FROM recorded)`),
  );
}

/** Firings kept beyond the idempotency window, per trigger, so the admin UI still shows a quiet trigger's last ones. */
export const FIRINGS_KEPT = 100;

/** Deletes firings past the idempotency window except each trigger's latest FIRINGS_KEPT (the maintenance sweep). */
export async function sweepFirings(db: PrismaClient, now = new Date()): Promise<number> {
  const expired = new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS).toISOString();
  return db.$executeRaw`DELETE FROM "TriggerFiring" WHERE "firedAt" < ${expired}::timestamp(3) AND "id" NOT IN (
      SELECT "id" FROM (SELECT "id", ROW_NUMBER() OVER (PARTITION BY "triggerId" ORDER BY "firedAt" DESC) AS n FROM "TriggerFiring") ranked WHERE n <= ${FIRINGS_KEPT})`;
}
