import type { Prisma } from "../../generated/prisma/client.js";
import { badPageArgument, readBound } from "../common/pagination.js";

/** `Run.nodeRuns(first)`: default and most (SPEC-V3 §1). */
export const MAX_NODE_RUNS_PER_READ = 1000;

/** Where a node run sits in the list's order: by start time (not started last), then node id, then invocation. */
export interface NodeRunKey {
  startedAt: Date | null;
  nodeKey: string;
  invocation: string;
}

/** The list's order, the one the admin UI shows. */
export const NODE_RUN_ORDER: Prisma.NodeRunOrderByWithRelationInput[] = [
  { startedAt: { sort: "asc", nulls: "last" } },
  { nodeKey: "asc" },
  { invocation: "asc" },
];

export interface NodeRunFilter {
  nodeId?: string | null;
  invocationPrefix?: string | null;
  first?: number | null;
  after?: string | null;
}

/** Opaque to clients: base64url of `[iso time or null, node id, invocation]`. */
export function encodeNodeRunCursor(key: NodeRunKey): string {
  return Buffer.from(JSON.stringify([key.startedAt?.toISOString() ?? null, key.nodeKey, key.invocation]), "utf8").toString("base64url");
}

/** Null for anything that is not a cursor this server wrote. */
export function decodeNodeRunCursor(cursor: string): NodeRunKey | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) return null;
  const [at, nodeKey, invocation] = parsed as unknown[];
  if (typeof nodeKey !== "string" || typeof invocation !== "string" || (at !== null && typeof at !== "string")) return null;
  if (at === null) return { startedAt: null, nodeKey, invocation };
  const startedAt = new Date(at);
  return Number.isNaN(startedAt.getTime()) ? null : { startedAt, nodeKey, invocation };
}

/**
 * The `where` and `take` of one page of a run's node runs: filtered by node and invocation prefix,
 * strictly after the cursor in NODE_RUN_ORDER. Bad page arguments throw BAD_USER_INPUT naming them.
 */
export function nodeRunPage(runId: string, filter: NodeRunFilter): { where: Prisma.NodeRunWhereInput; take: number } {
  const take = readBound("first", filter.first, { max: MAX_NODE_RUNS_PER_READ, fallback: MAX_NODE_RUNS_PER_READ });
  const conditions: Prisma.NodeRunWhereInput[] = [{ runId }];
  if (filter.nodeId !== null && filter.nodeId !== undefined) conditions.push({ nodeKey: filter.nodeId });
  if (filter.invocationPrefix) conditions.push({ invocation: { startsWith: likeLiteral(filter.invocationPrefix) } });
  if (filter.after) {
    const key = decodeNodeRunCursor(filter.after);
    if (!key) throw badPageArgument("after", "after is not a cursor of this list");
    conditions.push(afterKey(key));
  }
  return { where: conditions.length === 1 ? conditions[0]! : { AND: conditions }, take };
}

/** Rows strictly after `key` in NODE_RUN_ORDER (nulls last). */
function afterKey({ startedAt, nodeKey, invocation }: NodeRunKey): Prisma.NodeRunWhereInput {
  const sameTimeAfter: Prisma.NodeRunWhereInput = { OR: [{ nodeKey: { gt: nodeKey } }, { nodeKey, invocation: { gt: invocation } }] };
  if (startedAt === null) return { AND: [{ startedAt: null }, sameTimeAfter] };
  return { OR: [{ startedAt: { gt: startedAt } }, { AND: [{ startedAt }, sameTimeAfter] }, { startedAt: null }] };
}

/** Prisma's startsWith is SQL LIKE and leaves `%` and `_` live: node ids may hold `_`, so they are escaped (backslash, LIKE's default escape). */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, "\\$&");
}
