import { randomUUID } from "node:crypto";
import { Prisma, type Run as RunRow } from "../../generated/prisma/client.js";
import { planned } from "../../db/planned.js";
import type { TriggerKind } from "../common/trigger-kind.type.js";

/** What a new run is stored with; every other column starts at its default. */
export interface NewRun {
  workflowId: string;
  request: Prisma.InputJsonObject;
  snapshot: Prisma.InputJsonObject;
  versionId: string | null;
  versionNumber: number | null;
  editVersion: number | null;
  rerunOfId: string | null;
  apiKeyId: string | null;
  threadId: string | null;
  /** The trigger that started the run; null for runs started through the API. */
  trigger?: { id: string; kind: TriggerKind } | null;
  /**
   * The claimed firing (a schedule's tick, a webhook's Idempotency-Key) the run is for: the run is stored
   * only while that claim is still this one's and has no run, and the same statement links it — so a crash
   * between claim and insert leaves a claim another process may take over (trigger-firing.store.ts), and a
   * claimant overtaken that way stores nothing.
   */
  firingId?: string | null;
  /** A trigger's call with no claim (a webhook call without Idempotency-Key): its firing is recorded STARTED with the run. */
  recordFiring?: boolean;
  /** The experiment whose row the run is (SPEC-V3 §4); absent for every other run. */
  experimentId?: string | null;
  /** The top-level nodes, each of which gets its top-level invocation's node run, PENDING. */
  nodes: readonly { id: string; type: string }[];
}

/**
 * Stores a run QUEUED and its top-level node runs PENDING in ONE statement (a data-modifying CTE):
 * atomic like the transaction Prisma's nested create opens, without its BEGIN, re-read and COMMIT
 * round trips. Returns the row as stored, built from what was written (the defaults are the schema's),
 * so nothing is read back. A workflow deleted in the meantime fails the statement (foreign key, P2003
 * or the raw query's 23503: see isForeignKeyViolation).
 */
export async function insertRunRow(db: Pick<Prisma.TransactionClient, "$executeRaw">, run: NewRun): Promise<RunRow> {
  return (await insertRunRowIf(db, run, null))!;
}

/**
 * The same statement, writing only if `guard` (a row source: a draft snapshot's, DraftSnapshot.guard)
 * yields a row when it runs; null when it did not, and nothing was written.
 */
export async function insertRunRowIf(db: Pick<Prisma.TransactionClient, "$executeRaw">, run: NewRun, guard: Prisma.Sql | null): Promise<RunRow | null> {
  const row: RunRow = {
    id: randomUUID(),
    workflowId: run.workflowId,
    status: "QUEUED",
    request: run.request as Prisma.JsonObject,
    snapshot: run.snapshot as Prisma.JsonObject,
    result: null,
    error: null,
    state: null,
    editVersion: run.editVersion,
    promptTokens: 0,
    completionTokens: 0,
    totalTokens: 0,
    costUsd: null,
    lastSeq: 0,
    attempt: 0,
    claimedBy: null,
    handovers: 0,
    crashSuspects: null,
    createdAt: new Date(),
    startedAt: null,
    finishedAt: null,
    apiKeyId: run.apiKeyId,
    versionId: run.versionId,
    versionNumber: run.versionNumber,
    rerunOfId: run.rerunOfId,
    threadId: run.threadId,
    triggerId: run.trigger?.id ?? null,
    triggerKind: run.trigger?.kind ?? null,
    experimentId: run.experimentId ?? null,
  };
  const values = Prisma.sql`${row.id}, ${row.workflowId}, 'QUEUED', ${JSON.stringify(run.request)}::jsonb, ${JSON.stringify(run.snapshot)}::jsonb, ${row.editVersion}::int,
            ${row.createdAt.toISOString()}::timestamp(3), ${row.apiKeyId}::text, ${row.versionId}::text, ${row.versionNumber}::int, ${row.rerunOfId}::text, ${row.threadId}::text,
            ${row.triggerId}::text, ${row.triggerKind}::"TriggerKind", ${row.experimentId}::text`;
  const firingId = run.firingId ?? null;
  const source = guard ? Prisma.sql`SELECT ${values} FROM (${guard}) guard` : firingId !== null ? Prisma.sql`SELECT ${values}` : Prisma.sql`VALUES (${values})`;
  const insertRun = Prisma.sql`INSERT INTO "Run" ("id", "workflowId", "status", "request", "snapshot", "editVersion", "createdAt", "apiKeyId", "versionId", "versionNumber", "rerunOfId", "threadId", "triggerId", "triggerKind", "experimentId")
    ${firingId === null ? source : Prisma.sql`${source} WHERE EXISTS (${unlinkedFiring(firingId)})`}
    RETURNING "id"`;
  const steps = firingSteps(run, row.createdAt);
  if (run.nodes.length === 0) {
    // The last step writes a row exactly when the run was written, so its count says whether it was.
    const last = steps.pop();
    const statement = last === undefined ? insertRun : Prisma.sql`WITH run AS (${insertRun})${asCtes(steps)} ${last.statement}`;
    return (await db.$executeRaw(planned(statement))) > 0 ? row : null;
  }
  // The nodes as one JSON argument: the statement's text is the same for every graph, so the embedded
  // database keeps it planned (planned-statements.ts).
  const nodes = JSON.stringify(run.nodes.map((node) => ({ key: node.id, type: node.type })));
  const inserted = await db.$executeRaw(
    planned(Prisma.sql`WITH run AS (${insertRun})${asCtes(steps)}
      INSERT INTO "NodeRun" ("id", "runId", "nodeKey", "nodeType")
      SELECT gen_random_uuid()::text, run."id", node."key", node."type" FROM run, jsonb_to_recordset(${nodes}::jsonb) AS node("key" text, "type" text)`),
  );
  return inserted > 0 ? row : null;
}

interface Step {
  name: string;
  statement: Prisma.Sql;
}

/** `, name AS (statement)` for each step after the `run` CTE. */
function asCtes(steps: readonly Step[]): Prisma.Sql {
  return steps.length === 0 ? Prisma.empty : Prisma.join(steps.map((step) => Prisma.sql`, ${Prisma.raw(step.name)} AS (${step.statement})`), "");
}

/**
 * What the run's insert also writes for its trigger, reading the CTE `run` (so nothing when the run was
 * not written): a claimed firing linked to the run, or a webhook call's firing recorded STARTED with it
 * and its trigger's lastFiredAt moved — one statement instead of a second round trip.
 */
function firingSteps(run: NewRun, at: Date): Step[] {
  if (run.firingId) {
    return [{ name: "linked", statement: Prisma.sql`UPDATE "TriggerFiring" SET "runId" = run."id", "status" = 'STARTED' FROM run WHERE "TriggerFiring"."id" = ${run.firingId}` }];
  }
  if (!run.recordFiring || !run.trigger) return [];
  const firedAt = at.toISOString();
  return [
    {
      name: "recorded",
      statement: Prisma.sql`INSERT INTO "TriggerFiring" ("id", "triggerId", "status", "runId", "firedAt")
        SELECT ${randomUUID()}, ${run.trigger.id}, 'STARTED'::"TriggerFiringStatus", run."id", ${firedAt}::timestamp(3) FROM run RETURNING "triggerId"`,
    },
    { name: "touched", statement: Prisma.sql`UPDATE "Trigger" SET "lastFiredAt" = ${firedAt}::timestamp(3) WHERE "id" IN (SELECT "triggerId" FROM recorded)` },
  ];
}

/**
 * The claim `firingId` while it still has no run, locked (FOR UPDATE) so a process taking the claim
 * over at the same moment either waits for this statement (and then sees the run) or has renamed the
 * claim first (and then this finds no row).
 */
function unlinkedFiring(firingId: string): Prisma.Sql {
  return Prisma.sql`SELECT 1 FROM "TriggerFiring" f WHERE f."id" = ${firingId} AND f."runId" IS NULL FOR UPDATE`;
}

/** The error a statement fails with when a row it inserts names a row that is gone (foreign key). */
export function isForeignKeyViolation(error: unknown): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (error.code === "P2003") return true;
  return error.code === "P2010" && /23503/.test(JSON.stringify(error.meta ?? {}) + error.message);
}
