import { Prisma } from "../../generated/prisma/client.js";
import type { ColumnValue, Columns, EventWrites } from "./run-event-record.js";

/**
 * One event's writes as ONE statement (data-modifying CTEs): insert the RunEvent row, update the node
 * run, update the run. Atomic like a transaction, but a single round trip: on the embedded database a
 * three-statement Prisma transaction costs several times more, and this write sits on the path of every
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

export function eventStatement(writes: EventWrites): Prisma.Sql {
  const { message } = writes;
  const insert = Prisma.sql`INSERT INTO "RunEvent" ("runId", "seq", "type", "nodeKey", "payload", "at")
    VALUES (${message.runId}, ${message.seq}::int, ${message.type}, ${message.nodeId}, ${JSON.stringify(message.payload)}::jsonb, ${message.at}::timestamp(3))`;
  const nodeRun = writes.nodeRun
    ? Prisma.sql`, node_run AS (UPDATE "NodeRun" SET ${setClause("NodeRun", writes.nodeRun.set)}
        WHERE "runId" = ${message.runId} AND "nodeKey" = ${writes.nodeRun.nodeKey})`
    : Prisma.empty;
  return Prisma.sql`WITH event AS (${insert})${nodeRun}
    UPDATE "Run" SET ${setClause("Run", writes.run)} WHERE "id" = ${message.runId}`;
}
