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
  Run: new Set(["status", "startedAt", "finishedAt", "activeLock", "result", "error", "promptTokens", "completionTokens", "totalTokens", "lastSeq"]),
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

/** A batch of one run's events (mergeWrites) as ONE statement: a multi-row insert and one update per row touched. */
export function batchStatement(batch: BatchWrites): Prisma.Sql {
  const rows = batch.messages.map(
    (message) => Prisma.sql`(${message.runId}, ${message.seq}::int, ${message.type}, ${message.nodeId}, ${JSON.stringify(message.payload)}::jsonb, ${message.at}::timestamp(3))`,
  );
  const insert = Prisma.sql`INSERT INTO "RunEvent" ("runId", "seq", "type", "nodeKey", "payload", "at") VALUES ${Prisma.join(rows, ", ")}`;
  const nodeRuns = [...batch.nodeRuns].map(
    ([nodeKey, set], index) => Prisma.sql`, ${Prisma.raw(`node_run_${index}`)} AS (UPDATE "NodeRun" SET ${setClause("NodeRun", set)}
        WHERE "runId" = ${batch.runId} AND "nodeKey" = ${nodeKey})`,
  );
  return Prisma.sql`WITH event AS (${insert})${nodeRuns.length > 0 ? Prisma.join(nodeRuns, "") : Prisma.empty}
    UPDATE "Run" SET ${setClause("Run", batch.run)} WHERE "id" = ${batch.runId}`;
}
