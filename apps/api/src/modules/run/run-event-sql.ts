import { Prisma } from "../../generated/prisma/client.js";
import type { BatchWrites } from "./run-event-batch.js";
import type { ColumnValue, Columns } from "./run-event-record.js";

/**
 * A batch of events' writes as ONE statement (data-modifying CTEs): insert the RunEvent rows, update the
 * node runs, update the run. Atomic like a transaction, but a single round trip: on the embedded database
 * a multi-statement Prisma transaction costs several times more, and this write sits on the path of every
 * event a client sees (see docs/benchmarks.md, api-event-latency).
 */

const ENUM_TYPE: Record<"Run" | "NodeRun", string> = { Run: '"RunStatus"', NodeRun: '"NodeRunStatus"' };

/** Columns the recorder may set; anything else is a programming error, caught before SQL is built. */
const ALLOWED: Record<"Run" | "NodeRun", ReadonlySet<string>> = {
  Run: new Set(["status", "startedAt", "finishedAt", "result", "error", "promptTokens", "completionTokens", "totalTokens", "lastSeq"]),
  NodeRun: new Set([
    "status", "startedAt", "finishedAt", "description", "output", "error", "inputs", "renderedPrompt", "context",
    "store", "rawReply", "provider", "model", "promptTokens", "completionTokens", "totalTokens", "retries",
  ]),
};

function valueSql(table: "Run" | "NodeRun", column: string, value: ColumnValue): Prisma.Sql {
  if (value === null) return Prisma.sql`NULL`;
  if (value instanceof Date) return Prisma.sql`${value.toISOString()}::timestamp(3)`;
  if (typeof value === "object" && "json" in value) return Prisma.sql`${JSON.stringify(value.json)}::jsonb`;
  if (typeof value === "object") return Prisma.sql`${Prisma.raw(`"${column}"`)} + ${value.increment}::int`;
  if (column === "status") return Prisma.sql`${value}::${Prisma.raw(ENUM_TYPE[table])}`;
  if (typeof value === "number") return Prisma.sql`${value}::int`;
  return Prisma.sql`${value}`;
}

function setClause(table: "Run" | "NodeRun", columns: Columns): Prisma.Sql {
  const parts = Object.entries(columns).map(([column, value]) => {
    if (!ALLOWED[table].has(column)) throw new Error(`run event writes may not set ${table}.${column}`);
    return Prisma.sql`${Prisma.raw(`"${column}"`)} = ${valueSql(table, column, value)}`;
  });
  return Prisma.join(parts, ", ");
}

/**
 * Batches of one or more runs (one batch per run, see mergeWrites) as ONE statement: a multi-row insert of
 * every event and one update per node run and per run touched. Distinct runs touch distinct rows, so no
 * row is updated twice.
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
  const fence = Prisma.sql`SELECT id FROM "Run" WHERE (${Prisma.join(owners, " OR ")}) AND status IN ('QUEUED', 'RUNNING') FOR UPDATE`;
  const fenced = Prisma.sql`IN (SELECT id FROM fence)`;
  const rows = batches.flatMap((batch) =>
    batch.messages.map(
      (message) => Prisma.sql`(${message.runId}, ${message.seq}::int, ${message.type}, ${message.nodeId}, ${JSON.stringify(message.payload)}::jsonb, ${message.at}::timestamp(3))`,
    ),
  );
  const updates: Prisma.Sql[] = [];
  for (const batch of batches) {
    for (const [nodeKey, set] of batch.nodeRuns) {
      updates.push(Prisma.sql`UPDATE "NodeRun" SET ${setClause("NodeRun", set)} WHERE "runId" = ${batch.runId} AND "nodeKey" = ${nodeKey} AND "runId" ${fenced}`);
    }
    updates.push(Prisma.sql`UPDATE "Run" SET ${setClause("Run", batch.run)} WHERE "id" = ${batch.runId} AND "id" ${fenced}`);
  }
  const insert = Prisma.sql`INSERT INTO "RunEvent" ("runId", "seq", "type", "nodeKey", "payload", "at")
    SELECT * FROM (VALUES ${Prisma.join(rows, ", ")}) AS v("runId", "seq", "type", "nodeKey", "payload", "at") WHERE v."runId" ${fenced}`;
  const ctes = [insert, ...updates].map((sql, index) => Prisma.sql`${Prisma.raw(`w${index}`)} AS (${sql})`);
  return Prisma.sql`WITH fence AS (${fence}), ${Prisma.join(ctes, ", ")} SELECT id FROM fence`;
}
