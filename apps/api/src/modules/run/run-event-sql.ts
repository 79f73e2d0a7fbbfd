import { Prisma } from "../../generated/prisma/client.js";
import { statusCheck } from "../../db/status-check.js";
import type { BatchWrites } from "./run-event-batch.js";
import type { ColumnValue, Columns, HumanTaskInsert, NodeRunKey } from "./run-event-record.js";

/** Statuses checked on the rows the keys found (status-check.ts: never through a status index). */
const RUN_EXECUTING = statusCheck("status", ["QUEUED", "RUNNING"]);
const TASK_OPEN = statusCheck("status", ["OPEN"]);

/**
 * A batch of events' writes as ONE statement (data-modifying CTEs): insert the RunEvent rows, upsert the
 * node runs (one per (run, node, invocation): a loop iteration or map item gets its row from its first
 * event), update the run. Atomic like a transaction, but a single round trip: on the embedded database
 * a multi-statement Prisma transaction costs several times more, and this write sits on the path of every
 * event a client sees (see docs/benchmarks.md, api-event-latency).
 */

const ENUM_TYPE: Record<"Run" | "NodeRun", string> = { Run: '"RunStatus"', NodeRun: '"NodeRunStatus"' };

/** Columns the recorder may set; anything else is a programming error, caught before SQL is built. */
const ALLOWED: Record<"Run" | "NodeRun", ReadonlySet<string>> = {
  Run: new Set(["status", "startedAt", "finishedAt", "result", "error", "state", "promptTokens", "completionTokens", "totalTokens", "costUsd", "lastSeq"]),
  NodeRun: new Set([
    "status", "startedAt", "finishedAt", "description", "output", "value", "error", "inputs", "renderedPrompt", "context",
    "store", "rawReply", "provider", "model", "promptTokens", "completionTokens", "totalTokens", "costUsd", "retries",
  ]),
};

function valueSql(table: "Run" | "NodeRun", column: string, value: ColumnValue): Prisma.Sql {
  if (value === null) return Prisma.sql`NULL`;
  if (value instanceof Date) return Prisma.sql`${value.toISOString()}::timestamp(3)`;
  if (typeof value === "object" && "json" in value) return Prisma.sql`${JSON.stringify(value.json)}::jsonb`;
  // Cost starts null (nothing priced yet), so a first addition starts from zero.
  if (typeof value === "object" && column === "costUsd") return Prisma.sql`COALESCE("costUsd", 0) + ${value.increment}::float8`;
  if (typeof value === "object") return Prisma.sql`${Prisma.raw(`"${column}"`)} + ${value.increment}::int`;
  if (column === "status") return Prisma.sql`${value}::${Prisma.raw(ENUM_TYPE[table])}`;
  if (typeof value === "number") return column === "costUsd" ? Prisma.sql`${value}::float8` : Prisma.sql`${value}::int`;
  return Prisma.sql`${value}`;
}

function checkColumn(table: "Run" | "NodeRun", column: string): string {
  if (!ALLOWED[table].has(column)) throw new Error(`run event writes may not set ${table}.${column}`);
  return `"${column}"`;
}

function setClause(table: "Run" | "NodeRun", columns: Columns): Prisma.Sql {
  const parts = Object.entries(columns).map(([column, value]) => Prisma.sql`${Prisma.raw(checkColumn(table, column))} = ${valueSql(table, column, value)}`);
  return Prisma.join(parts, ", ");
}

/**
 * One node run's columns as an upsert on (runId, nodeKey, invocation), for a run the statement's fence
 * kept: inserted with its type when the invocation has no row yet, else updated. Node-run columns are plain values (no increments), so the
 * inserted row and the updated one hold the same.
 */
function nodeRunUpsert(runId: string, nodeRun: NodeRunKey & { set: Columns }, fenced: Prisma.Sql): Prisma.Sql {
  const entries = Object.entries(nodeRun.set);
  for (const [column, value] of entries) {
    if (typeof value === "object" && value !== null && "increment" in value) throw new Error(`node run column ${column} cannot be incremented`);
  }
  const columns = entries.map(([column]) => Prisma.raw(checkColumn("NodeRun", column)));
  const values = entries.map(([column, value]) => valueSql("NodeRun", column, value));
  const updates = columns.map((column) => Prisma.sql`${column} = EXCLUDED.${column}`);
  const names = columns.length > 0 ? Prisma.sql`, ${Prisma.join(columns, ", ")}` : Prisma.empty;
  const given = values.length > 0 ? Prisma.sql`, ${Prisma.join(values, ", ")}` : Prisma.empty;
  const onConflict = updates.length > 0 ? Prisma.sql`DO UPDATE SET ${Prisma.join(updates, ", ")}` : Prisma.sql`DO NOTHING`;
  return Prisma.sql`INSERT INTO "NodeRun" ("id", "runId", "nodeKey", "invocation", "nodeType"${names})
        SELECT gen_random_uuid()::text, ${runId}, ${nodeRun.nodeKey}, ${nodeRun.invocation}, ${nodeRun.nodeType}${given}
        WHERE ${runId} ${fenced}
        ON CONFLICT ("runId", "nodeKey", "invocation") ${onConflict}`;
}

/**
 * The task a NODE_WAITING opens, with the run's workflow, for a run the fence kept. Its id is the event's
 * taskId, the same for the invocation on every attempt: a resumed attempt that opens it again adds nothing.
 */
function taskInsert(runId: string, task: HumanTaskInsert, fenced: Prisma.Sql): Prisma.Sql {
  const json = (value: unknown) => Prisma.sql`${JSON.stringify(value ?? null)}::jsonb`;
  const time = (value: Date | null) => (value === null ? Prisma.sql`NULL` : Prisma.sql`${value.toISOString()}::timestamp(3)`);
  return Prisma.sql`INSERT INTO "HumanTask" ("id", "runId", "workflowId", "nodeId", "invocation", "title", "instructions", "actions", "form", "input",
          "editable", "onTimeout", "assignee", "createdAt", "expiresAt")
        SELECT ${task.id}::text, r.id, r."workflowId", ${task.nodeId}::text, ${task.invocation}::text, ${task.title}::text, ${task.instructions}::text,
          ${json(task.actions)}, ${task.form === null ? Prisma.sql`NULL` : json(task.form)}, ${json(task.input)}, ${task.editable}::boolean,
          ${task.onTimeout}::text, ${task.assignee}::text, ${time(task.createdAt)}, ${time(task.expiresAt)}
        FROM "Run" r WHERE r.id = ${runId} AND r.id ${fenced}
        ON CONFLICT DO NOTHING`;
}

/** A run that ends closes the tasks its waiting nodes had left open. */
function openTasksCancelled(runId: string, fenced: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`UPDATE "HumanTask" SET status = 'CANCELLED', "completedAt" = now() WHERE "runId" = ${runId} AND ${TASK_OPEN} AND "runId" ${fenced}`;
}

/**
 * Batches of one or more runs (one batch per run, see mergeWrites) as ONE statement: a multi-row insert of
 * every event, one upsert per node run (one per (run, node, invocation): a loop iteration or map item
 * gets its row from its first event) and one update per run touched. Distinct runs touch distinct rows,
 * and a batch holds each node run once, so no row is written twice.
 *
 * Fencing: the statement first locks the runs it writes (`fence`), keeping only those still active and,
 * for a batch that names its attempt, still claimed by that attempt; rows of the other runs are neither
 * inserted nor updated. It returns the ids of the runs it wrote, so the writer can refuse the others'
 * batches. The lock orders the write with a claim (run-claim.ts) and with terminateRun: whichever
 * commits first, the other sees it.
 */
export function batchStatement(batches: readonly BatchWrites[]): Prisma.Sql {
  const runIds = new Set(batches.map((batch) => batch.runId));
  if (batches.length === 0 || runIds.size !== batches.length) throw new Error("a statement holds one batch for each of its runs");
  const owners = batches.map((batch) =>
    batch.attempt === null ? Prisma.sql`(id = ${batch.runId})` : Prisma.sql`(id = ${batch.runId} AND attempt = ${batch.attempt}::int)`,
  );
  const fence = Prisma.sql`SELECT id FROM "Run" WHERE (${Prisma.join(owners, " OR ")}) AND ${RUN_EXECUTING} FOR UPDATE`;
  const fenced = Prisma.sql`IN (SELECT id FROM fence)`;
  const rows = batches.flatMap((batch) =>
    batch.messages.map(
      (message) => Prisma.sql`(${message.runId}, ${message.seq}::int, ${message.type}, ${message.nodeId}, ${JSON.stringify(message.payload)}::jsonb, ${message.at}::timestamp(3))`,
    ),
  );
  const updates: Prisma.Sql[] = [];
  for (const batch of batches) {
    for (const nodeRun of batch.nodeRuns.values()) updates.push(nodeRunUpsert(batch.runId, nodeRun, fenced));
    for (const task of batch.tasks) updates.push(taskInsert(batch.runId, task, fenced));
    if (batch.closesTasks) updates.push(openTasksCancelled(batch.runId, fenced));
    updates.push(Prisma.sql`UPDATE "Run" SET ${setClause("Run", batch.run)} WHERE "id" = ${batch.runId} AND "id" ${fenced}`);
  }
  const insert = Prisma.sql`INSERT INTO "RunEvent" ("runId", "seq", "type", "nodeKey", "payload", "at")
    SELECT * FROM (VALUES ${Prisma.join(rows, ", ")}) AS v("runId", "seq", "type", "nodeKey", "payload", "at") WHERE v."runId" ${fenced}`;
  const ctes = [insert, ...updates].map((sql, index) => Prisma.sql`${Prisma.raw(`w${index}`)} AS (${sql})`);
  return Prisma.sql`WITH fence AS (${fence}), ${Prisma.join(ctes, ", ")} SELECT id FROM fence`;
}
