import type { Workflow } from "@weft/engine";
import { Prisma, type PrismaClient, type Workflow as WorkflowRow } from "../../generated/prisma/client.js";
import { planned } from "../../db/planned.js";
import type { Outcome } from "../../errors/outcome.js";
import { refuse, withRefusals } from "../../errors/refusal.js";
import { notFoundError, userError, type UserError, type UserErrorOptions } from "../../errors/user-error.type.js";
import { ACTIVE_RUN_STATUSES, EXECUTING_RUN_STATUSES } from "../common/run-status.js";
import { workflowFromRows } from "./workflow.mapper.js";

/**
 * Nodes in creation order. Imports and duplicates stamp createdAt one millisecond apart in document
 * order, so an exported document lists its nodes in the order they were imported.
 */
export const NODE_ORDER = [{ createdAt: "asc" }, { key: "asc" }] satisfies Prisma.WorkflowNodeOrderByWithRelationInput[];

/** Generous: the machine may be busy, and a run start loads and checks a 2,000-node graph inside. */
export const LOCKED_TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 30_000 } as const;

/** A workflow whose row lock this transaction holds. */
export interface LockedWorkflow {
  row: WorkflowRow;
  /** The QUEUED or RUNNING run of the draft holding the graph, if any (runs of published versions never do). */
  activeRunId: string | null;
}

export type LockedWork<T> = (tx: Prisma.TransactionClient, workflow: LockedWorkflow) => Promise<T>;

/** How withLockedWorkflow takes the lock. */
export interface LockOptions {
  /** Where a missing workflow's NOT_FOUND points (default `["workflowId"]`). */
  notFoundPath?: string[];
  /**
   * Take the lock by bumping the workflow's version (one statement instead of a lock and a later
   * update): `row` then holds the new version. A refusal rolls the bump back with everything else.
   */
  bumpVersion?: boolean;
}

/** The workflow's QUEUED or RUNNING run of the draft (id or NULL), as an SQL scalar subquery. */
export function activeDraftRunSql(workflowId: string): Prisma.Sql {
  return Prisma.sql`(
    SELECT r.id FROM "Run" r
    WHERE r."workflowId" = ${workflowId} AND r."versionId" IS NULL AND r.status::text IN (${Prisma.join(EXECUTING_RUN_STATUSES)})
    ORDER BY r."createdAt" DESC LIMIT 1
  )`;
}

export type LockedRowWork<T> = (tx: Prisma.TransactionClient, row: WorkflowRow) => Promise<T>;

/**
 * The workflow's row lock and its row, and nothing else: the first statement of the transaction. What
 * the work reads must come in later statements. (On PostgreSQL a statement that waited for the lock
 * still reads other tables as of its start: a run or an edit committed while it waited would be missed.)
 */
export function withLockedRow<T>(db: PrismaClient, workflowId: string, work: LockedRowWork<T>, options: LockOptions = {}): Promise<Outcome<T>> {
  return withRefusals(() =>
    db.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<WorkflowRow[]>(
        planned(
          options.bumpVersion
            ? Prisma.sql`UPDATE "Workflow" w SET "version" = w."version" + 1, "updatedAt" = (now() AT TIME ZONE 'UTC')
                WHERE w.id = ${workflowId} RETURNING w.*`
            : Prisma.sql`SELECT w.* FROM "Workflow" w WHERE w.id = ${workflowId} FOR UPDATE OF w`,
        ),
      );
      if (!row) refuse(notFoundError("workflow", workflowId, options.notFoundPath ?? ["workflowId"]));
      return work(tx, row);
    }, LOCKED_TRANSACTION_OPTIONS),
  );
}

/**
 * Lock and load a workflow: for this module's changes that must see a workflow without a concurrent
 * one — settings updates, deletion. Inside one transaction it takes the workflow's row lock (the lock
 * run starts take too, through withLockedDraft, so these serialise: an edit sees the run and is refused,
 * or the run starts from the graph as edited, never a mix), reads the row and then its active run, and
 * runs `work`, which loads what it needs and writes; `refuse(...)` rolls everything back. (Graph edits
 * use withLockedRow and read the active run in their own first statement.)
 */
export function withLockedWorkflow<T>(db: PrismaClient, workflowId: string, work: LockedWork<T>, options: LockOptions = {}): Promise<Outcome<T>> {
  return withLockedRow(db, workflowId, async (tx, row) => work(tx, { row, activeRunId: await findActiveRunId(tx, workflowId) }), options);
}

/** A workflow's draft as the last committed edit left it, read while no edit can change it. */
export interface LockedDraft {
  workflow: Workflow;
  /** The workflow's edit version (Workflow.version) the draft is at. */
  editVersion: number;
}

/**
 * The lock as other modules use it: work on a workflow's draft while no edit can change it (a run of
 * the draft starts from it, publishing freezes it). Takes the row lock every edit takes, so the work sees
 * exactly one edit's result and an edit after it sees what the work wrote; `refuse(...)` rolls the work
 * back. Whether a run of the draft is active does not matter here (runs of the draft do not refuse each
 * other), so it is not read.
 */
export function withLockedDraft<T>(
  db: PrismaClient,
  workflowId: string,
  work: (tx: Prisma.TransactionClient, draft: LockedDraft) => Promise<T>,
  options: Pick<LockOptions, "notFoundPath"> = {},
): Promise<Outcome<T>> {
  return withLockedRow(db, workflowId, async (tx, row) => work(tx, { workflow: await loadWorkflow(tx, { row }), editVersion: row.version }), options);
}

/** The one refusal of a graph change while a run of the draft holds the workflow. */
export function lockedWhileRunning(activeRunId: string | null, refs: UserErrorOptions = {}): UserError {
  const which = activeRunId ? `its draft run "${activeRunId}"` : "a run of its draft";
  return userError(
    "LOCKED_WHILE_RUNNING",
    `the workflow's graph cannot change while ${which} is active; wait for it to end or cancel it (runs of published versions never block edits)`,
    refs,
  );
}

/** The whole workflow (every node attribute, edges in creation order), as a run executes it. */
export async function loadWorkflow(tx: Prisma.TransactionClient, workflow: Pick<LockedWorkflow, "row">): Promise<Workflow> {
  const workflowId = workflow.row.id;
  const nodes = await tx.workflowNode.findMany({ where: { workflowId }, orderBy: NODE_ORDER });
  const edges = await tx.workflowEdge.findMany({ where: { workflowId }, orderBy: { position: "asc" } });
  return workflowFromRows(workflow.row, nodes, edges);
}

/** How many runs of the workflow, of any version or the draft, are active. */
export function countActiveRuns(db: Prisma.TransactionClient, workflowId: string): Promise<number> {
  return db.run.count({ where: { workflowId, status: { in: [...ACTIVE_RUN_STATUSES] } } });
}

/** The id of the workflow's QUEUED or RUNNING run of the draft, if any. */
export async function findActiveRunId(db: Prisma.TransactionClient, workflowId: string): Promise<string | null> {
  const run = await db.run.findFirst({
    where: { workflowId, versionId: null, status: { in: [...EXECUTING_RUN_STATUSES] } },
    select: { id: true },
    orderBy: { createdAt: "desc" },
  });
  return run?.id ?? null;
}

/**
 * Takes the row in share mode: concurrent readers proceed, edits (FOR UPDATE) wait until the reading
 * transaction ends, so a workflow read in one transaction never mixes two versions of its graph.
 */
export async function shareLockWorkflowRow(tx: Prisma.TransactionClient, workflowId: string): Promise<boolean> {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "Workflow" WHERE id = ${workflowId} FOR SHARE`;
  return rows.length > 0;
}
