import type { NodeTypeRegistry, WorkflowEdge, WorkflowGraph, WorkflowNode } from "@weft/engine";
import type { Prisma, Workflow as WorkflowRow } from "../../generated/prisma/client.js";
import { settingsFromRow } from "./workflow-settings.mapper.js";

/**
 * The parts of a stored graph one edit's rules read, fetched by indexed neighbourhood instead of
 * loading the whole graph (edits on a 500-node workflow are a few small queries, not 1,500 rows). Each
 * slice is exactly what the engine's edit check looks at, so checking the slice gives the same answer
 * as checking the whole graph (see workflow-graph-slice.int.test.ts). Call inside withLockedWorkflow:
 * the row lock keeps the graph still while it is read.
 */

interface EdgeRow {
  key: string;
  source: string;
  target: string;
  position: number;
}

/** Which sides of a new edge the rules count in full: a side whose degree is unbounded is never "too many". */
export interface NewEdgeSides {
  /** Every edge out of the source (its out-degree is bounded); otherwise only those to the target. */
  wholeOut: boolean;
  /** Every edge into the target (its in-degree is bounded); otherwise only those from the source. */
  wholeIn: boolean;
}

/**
 * For checkAddEdge(source → target): both nodes, the edges into the target and out of the source (all
 * of them where a degree limit applies, else the ones between the two, for DUPLICATE_EDGE), and
 * everything reachable from the target with its out-edges (a path back to the source closes a cycle).
 */
export async function newEdgeSlice(
  tx: Prisma.TransactionClient,
  workflowId: string,
  ends: readonly WorkflowNode[],
  { source, target }: { source: string; target: string },
  sides: NewEdgeSides,
): Promise<WorkflowGraph> {
  const edges = await tx.$queryRaw<EdgeRow[]>`
    WITH RECURSIVE reach(key) AS (
      SELECT ${target}::text
      UNION
      SELECT e."target" FROM "WorkflowEdge" e JOIN reach r ON e."source" = r.key WHERE e."workflowId" = ${workflowId}
    )
    SELECT e."key", e."source", e."target", e."position" FROM "WorkflowEdge" e
    WHERE e."workflowId" = ${workflowId}
      AND (e."source" IN (SELECT key FROM reach)
        OR (e."target" = ${target} AND (${sides.wholeIn} OR e."source" = ${source}))
        OR (e."source" = ${source} AND ${sides.wholeOut}))
    ORDER BY e."position"`;
  const keys = new Set([source, target]);
  for (const edge of edges) keys.add(edge.source).add(edge.target);
  // Often no other node is involved (a new node, an unbounded side): the two ends are already read.
  const nodes = keys.size <= ends.length ? [...ends] : await nodesByKey(tx, workflowId, [...keys]);
  return { nodes, edges: edges.map(toEdge) };
}

/** The nodes with these keys (id and type only), in creation order; missing keys are left out. */
export async function nodesByKey(tx: Prisma.TransactionClient, workflowId: string, keys: readonly string[]): Promise<WorkflowNode[]> {
  const rows = await tx.workflowNode.findMany({
    where: { workflowId, key: { in: [...keys] } },
    orderBy: [{ createdAt: "asc" }, { key: "asc" }],
    select: { key: true, type: true },
  });
  return rows.map((row) => ({ id: row.key, type: row.type }));
}

/** For the count rules (checkAddNode, checkRemoveNode): the nodes of one type, and nothing else. */
export async function nodesOfType(tx: Prisma.TransactionClient, workflowId: string, type: string): Promise<WorkflowGraph> {
  const rows = await tx.workflowNode.findMany({ where: { workflowId, type }, orderBy: [{ createdAt: "asc" }, { key: "asc" }], select: { key: true } });
  return { nodes: rows.map((row) => ({ id: row.key, type })), edges: [] };
}

/** How many nodes the workflow holds, and whether `key` is one of them (one round trip for addNode). */
export async function nodeCount(tx: Prisma.TransactionClient, workflowId: string, key: string): Promise<{ count: number; taken: boolean }> {
  const [row] = await tx.$queryRaw<{ count: number; taken: boolean }[]>`
    SELECT count(*)::int AS "count", bool_or("key" = ${key}) IS TRUE AS "taken"
    FROM "WorkflowNode" WHERE "workflowId" = ${workflowId}`;
  return { count: row?.count ?? 0, taken: row?.taken ?? false };
}

/** Keys of the nodes whose key starts with `prefix` (to number a new node `<type>-<n>`). */
export async function nodeKeysStartingWith(tx: Prisma.TransactionClient, workflowId: string, prefix: string): Promise<string[]> {
  const rows = await tx.workflowNode.findMany({ where: { workflowId, key: { startsWith: prefix } }, select: { key: true } });
  return rows.map((row) => row.key);
}

/** Keys of the edges touching a node (what removing it removes with it), in creation order. */
export async function edgesTouching(tx: Prisma.TransactionClient, workflowId: string, nodeKey: string): Promise<string[]> {
  const rows = await tx.workflowEdge.findMany({
    where: { workflowId, OR: [{ source: nodeKey }, { target: nodeKey }] },
    orderBy: { position: "asc" },
    select: { key: true },
  });
  return rows.map((row) => row.key);
}

export interface EdgeCounters {
  count: number;
  /** The highest edge position (0 without edges): a new edge goes after it. */
  lastPosition: number;
}

/**
 * How many edges there are, and the position a new edge continues from. (Key numbers continue from
 * the workflow row's `lastEdgeNumber`, kept by every write that adds edges: no scan of the keys.)
 */
export async function edgeCounters(tx: Prisma.TransactionClient, workflowId: string): Promise<EdgeCounters> {
  const [row] = await tx.$queryRaw<{ count: number; lastPosition: number | null }[]>`
    SELECT count(*)::int AS "count", max("position")::int AS "lastPosition"
    FROM "WorkflowEdge" WHERE "workflowId" = ${workflowId}`;
  return { count: row?.count ?? 0, lastPosition: row?.lastPosition ?? 0 };
}

/**
 * Whether an edit's rules can be checked on slices: the workflow holds only seed-000 node types and
 * declares no loops, state channels or limits (so it has no ports, loop edges or bodies either). Anything
 * else is checked on the whole graph: the weft.workflow/v2 rules (loops, dominators, state conflicts)
 * are not local.
 */
export async function checkedOnSlices(tx: Prisma.TransactionClient, workflow: WorkflowRow, registry: NodeTypeRegistry): Promise<boolean> {
  if (Object.keys(settingsFromRow(workflow)).length > 0) return false;
  const seedTypes = registry.specs().filter((spec) => spec.profile === "seed").map((spec) => spec.type);
  const other = await tx.workflowNode.findFirst({ where: { workflowId: workflow.id, type: { notIn: seedTypes } }, select: { key: true } });
  return other === null;
}

function toEdge(row: EdgeRow): WorkflowEdge {
  return { id: row.key, source: row.source, target: row.target };
}
