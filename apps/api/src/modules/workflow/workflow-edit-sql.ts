import type { JsonValue, NodeTypeRegistry, WorkflowEdge, WorkflowNode } from "@weft/engine";
import { Prisma, type Workflow as WorkflowRow, type WorkflowEdge as EdgeRow, type WorkflowNode as NodeRow } from "../../generated/prisma/client.js";
import { planned } from "../../db/planned.js";
import { activeDraftRunSql } from "./workflow-lock.js";
import { settingsFromRow } from "./workflow-settings.mapper.js";

/**
 * Each node or edge edit as ONE statement after the lock (data-modifying CTEs): it reads the active run
 * of the draft and the slice of the graph the edit's rules look at, and writes the edit unless a run is
 * active or the node is missing. The rules are checked afterwards on what it read — the graph as it was
 * before the write, since every part of a statement sees the same snapshot — and a refusal rolls the
 * write back with the version bump. On the embedded database every statement is a round trip through
 * PGlite, the main cost of an edit (see docs/benchmarks.md, api-edit-latency); a test counts them
 * (workflow-edit-statements.int.test.ts). Call inside runGraphEdit: the row lock keeps the graph still.
 */

type Tx = Prisma.TransactionClient;

/** What the edit-time rules of one node type allow, as lists of type names for the statements. */
export interface RuleTypes {
  /** seed-000 types: a workflow holding only these (and no settings) has its edits checked on slices. */
  seed: string[];
  /** Types whose out-degree is unbounded: a new edge from one counts only the edges to its target. */
  unboundedOut: string[];
  /** Types whose in-degree is unbounded: a new edge into one counts only the edges from its source. */
  unboundedIn: string[];
  /** Types with a count rule (checkAddNode, checkRemoveNode read the nodes of that type). */
  counted: string[];
}

export function ruleTypes(registry: NodeTypeRegistry): RuleTypes {
  const specs = registry.definitions();
  return {
    seed: specs.filter((spec) => registry.isSeedType(spec.type)).map((spec) => spec.type),
    unboundedOut: specs.filter((spec) => !Number.isFinite(spec.outDegree.max)).map((spec) => spec.type),
    unboundedIn: specs.filter((spec) => !Number.isFinite(spec.inDegree.max)).map((spec) => spec.type),
    counted: specs.filter((spec) => spec.count).map((spec) => spec.type),
  };
}

/**
 * Whether an edit's rules can be checked on slices: the workflow declares no loops, state channels or
 * limits and holds only seed-000 node types (`otherTypes` false), so it has no ports, loop edges or
 * bodies either. Anything else is checked on the whole graph: the weft.workflow/v2 rules (loops,
 * dominators, state conflicts) are not local.
 */
export function checkedOnSlices(row: WorkflowRow, otherTypes: boolean): boolean {
  return !otherTypes && Object.keys(settingsFromRow(row)).length === 0;
}

function inList(column: Prisma.Sql, values: readonly string[]): Prisma.Sql {
  return values.length > 0 ? Prisma.sql`${column} IN (${Prisma.join(values)})` : Prisma.sql`FALSE`;
}

function otherTypesSql(workflowId: string, types: RuleTypes): Prisma.Sql {
  return Prisma.sql`EXISTS (SELECT 1 FROM "WorkflowNode" o WHERE o."workflowId" = ${workflowId} AND NOT (${inList(Prisma.sql`o."type"`, types.seed)}))`;
}

function jsonSql(value: unknown, type: "json" | "jsonb"): Prisma.Sql {
  return value === null || value === undefined ? Prisma.sql`NULL` : Prisma.sql`${JSON.stringify(value)}::${Prisma.raw(type)}`;
}

export interface AddedEdge {
  activeRunId: string | null;
  /** The workflow held `maxEdges` edges or more before the write. */
  full: boolean;
  otherTypes: boolean;
  /** newEdgeSlice: the slice checkAddEdge(source → target) reads, before the write. */
  slice: { nodes: WorkflowNode[]; edges: WorkflowEdge[] };
  /** The edge written (null when a run is active or an end is missing: nothing was written). */
  edge: EdgeRow | null;
  /** Its number (`e<n>`), now the workflow's lastEdgeNumber. */
  number: number;
}

/**
 * addEdge: the slice for checkAddEdge(source → target) — both ends, the edges into the target and out
 * of the source (all of them where a degree limit applies, else the ones between the two, for
 * DUPLICATE_EDGE), everything reachable from the target with its out-edges (a path back to the source
 * closes a cycle) and the nodes these edges join — and the edge written after every existing one
 * (position = highest + 1) with the number `e<n>` nextEdgeNumber gives, recorded in `lastEdgeNumber`.
 */
export async function addEdgeStatement(
  tx: Tx,
  row: WorkflowRow,
  edge: { source: string; target: string; sourcePort: string | null; loop: string | null },
  types: RuleTypes,
  maxEdges: number,
): Promise<AddedEdge> {
  const { source, target } = edge;
  const w = row.id;
  const ends = source === target ? 1 : 2;
  const [result] = await tx.$queryRaw<(EdgeRow & { activeRunId: string | null; full: boolean; edgeNumber: number; otherTypes: boolean; nodes: WorkflowNode[]; edges: WorkflowEdge[] })[]>(planned(Prisma.sql`
    WITH RECURSIVE run AS (SELECT ${activeDraftRunSql(w)} AS id),
    ends AS (SELECT n."key", n."type" FROM "WorkflowNode" n WHERE n."workflowId" = ${w} AND n."key" IN (${source}, ${target})),
    sides AS (SELECT
      COALESCE((SELECT NOT (${inList(Prisma.sql`d."type"`, types.unboundedOut)}) FROM ends d WHERE d."key" = ${source}), TRUE) AS "wholeOut",
      COALESCE((SELECT NOT (${inList(Prisma.sql`d."type"`, types.unboundedIn)}) FROM ends d WHERE d."key" = ${target}), TRUE) AS "wholeIn"),
    -- The edges out of the target and out of everything reachable from it (a path back to the source
    -- closes a cycle), walked edge by edge on the (workflowId, source) index.
    reach AS (
      SELECT e."key", e."source", e."target", e."position" FROM "WorkflowEdge" e WHERE e."workflowId" = ${w} AND e."source" = ${target}
      UNION
      SELECT e."key", e."source", e."target", e."position" FROM reach r JOIN "WorkflowEdge" e ON e."workflowId" = ${w} AND e."source" = r."target"
    ),
    slice AS (
      SELECT r."key", r."source", r."target", r."position" FROM reach r
      UNION
      SELECT e."key", e."source", e."target", e."position" FROM "WorkflowEdge" e, sides
      WHERE e."workflowId" = ${w} AND e."target" = ${target} AND (sides."wholeIn" OR e."source" = ${source})
      UNION
      SELECT e."key", e."source", e."target", e."position" FROM "WorkflowEdge" e, sides
      WHERE e."workflowId" = ${w} AND e."source" = ${source} AND sides."wholeOut"
    ),
    counters AS (SELECT COALESCE(max(e."position"), 0)::int AS "lastPosition" FROM "WorkflowEdge" e WHERE e."workflowId" = ${w}),
    -- Positions are distinct (1..n on import, highest + 1 on addEdge), so there are no more edges than
    -- the highest position: the edges are counted only when that reaches the limit.
    limited AS (
      SELECT c."lastPosition" >= ${maxEdges}::int AND (SELECT count(*) FROM "WorkflowEdge" e WHERE e."workflowId" = ${w}) >= ${maxEdges}::int AS "full"
      FROM counters c
    ),
    next AS (SELECT c."lastPosition" + 1 AS "position", GREATEST(${row.lastEdgeNumber}::int + 1, c."lastPosition" + 1) AS "number" FROM counters c),
    added AS (
      INSERT INTO "WorkflowEdge" ("workflowId", "key", "source", "target", "sourcePort", "loop", "position", "createdAt")
      SELECT ${w}, 'e' || x."number", ${source}, ${target}, ${edge.sourcePort}::text, ${edge.loop}::text, x."position", ${new Date().toISOString()}::timestamp(3)
      FROM next x
      WHERE (SELECT id FROM run) IS NULL AND (SELECT count(*) FROM ends) = ${ends}::int
      RETURNING *
    ),
    numbered AS (UPDATE "Workflow" u SET "lastEdgeNumber" = x."number" FROM next x WHERE u.id = ${w} AND EXISTS (SELECT 1 FROM added))
    SELECT (SELECT id FROM run) AS "activeRunId", l."full", (SELECT x."number" FROM next x) AS "edgeNumber", ${otherTypesSql(w, types)} AS "otherTypes",
      COALESCE((
        SELECT json_agg(json_build_object('id', n."key", 'type', n."type") ORDER BY n."createdAt", n."key")
        FROM (SELECT s."source" AS key FROM slice s UNION SELECT s."target" FROM slice s UNION SELECT ${source} UNION SELECT ${target}) k
        -- One primary-key lookup per key (LIMIT 1 keeps the planner from hashing every node instead).
        CROSS JOIN LATERAL (SELECT m."key", m."type", m."createdAt" FROM "WorkflowNode" m WHERE m."workflowId" = ${w} AND m."key" = k.key LIMIT 1) n
      ), '[]') AS "nodes",
      COALESCE((SELECT json_agg(json_build_object('id', s."key", 'source', s."source", 'target', s."target") ORDER BY s."position") FROM slice s), '[]') AS "edges",
      a.*
    FROM limited l LEFT JOIN added a ON TRUE`));
  if (!result) throw new Error("the addEdge statement returns one row");
  const { activeRunId, full, edgeNumber, otherTypes, nodes, edges, ...added } = result;
  return { activeRunId, full, otherTypes, slice: { nodes, edges }, edge: added.key === null ? null : added, number: edgeNumber };
}

export interface NodeColumns {
  type: string;
  content: string | null;
  provider: string | null;
  model: string | null;
  params: Record<string, unknown> | null;
  prompt: string | null;
  config: Record<string, JsonValue> | null;
  positionX: number;
  positionY: number;
}

export interface AddedNode {
  activeRunId: string | null;
  /** The key given, or the one picked (nextNodeId's rule: `<type>-<n>`, n one above the highest). */
  key: string;
  /** Nodes in the workflow before the write, and whether `key` was one of them. */
  count: number;
  taken: boolean;
  otherTypes: boolean;
  /** Keys of the nodes of this type before the write, in creation order (only when `countRule`). */
  peers: string[];
  /** The node written (null when a run is active or the key is taken: nothing was written). */
  node: NodeRow | null;
}

/** addNode: what its rules read (node count, the key taken, the nodes of its type) and the node written. */
export async function addNodeStatement(tx: Tx, row: WorkflowRow, key: string | null, columns: NodeColumns, countRule: boolean, types: RuleTypes): Promise<AddedNode> {
  const w = row.id;
  const prefix = `${columns.type}-`;
  // nextNodeId (node-id.ts) in SQL: one above the highest n of `<type>-<n>` with 1 to 9 digits, found in
  // the same pass over the workflow's nodes that counts them.
  const highest =
    key !== null
      ? Prisma.sql`NULL::int`
      : Prisma.sql`max(CASE WHEN left(n."key", ${prefix.length}::int) = ${prefix} AND substr(n."key", ${prefix.length + 1}::int) ~ '^[0-9]{1,9}$'
          THEN substr(n."key", ${prefix.length + 1}::int)::int END)`;
  const picked = key !== null ? Prisma.sql`${key}::text` : Prisma.sql`${prefix}::text || (COALESCE(c."highest", 0) + 1)`;
  const peers = countRule
    ? Prisma.sql`ARRAY(SELECT t."key" FROM "WorkflowNode" t WHERE t."workflowId" = ${w} AND t."type" = ${columns.type} ORDER BY t."createdAt", t."key")`
    : Prisma.sql`ARRAY[]::text[]`;
  const now = new Date().toISOString();
  const [result] = await tx.$queryRaw<(NodeRow & { activeRunId: string | null; pickedKey: string; count: number; taken: boolean; otherTypes: boolean; peers: string[] })[]>(planned(Prisma.sql`
    WITH run AS (SELECT ${activeDraftRunSql(w)} AS id),
    counted AS (SELECT count(*)::int AS "count", ${highest} AS "highest" FROM "WorkflowNode" n WHERE n."workflowId" = ${w}),
    picked AS (SELECT ${picked} AS "key" FROM counted c),
    stats AS (
      SELECT c."count", EXISTS (SELECT 1 FROM "WorkflowNode" n, picked p WHERE n."workflowId" = ${w} AND n."key" = p."key") AS "taken"
      FROM counted c
    ),
    added AS (
      INSERT INTO "WorkflowNode" ("workflowId", "key", "type", "content", "provider", "model", "params", "prompt", "config", "positionX", "positionY", "createdAt", "updatedAt")
      SELECT ${w}, p."key", ${columns.type}, ${columns.content}::text, ${columns.provider}::text, ${columns.model}::text, ${jsonSql(columns.params, "jsonb")},
        ${columns.prompt}::text, ${jsonSql(columns.config, "json")}, ${columns.positionX}::float8, ${columns.positionY}::float8, ${now}::timestamp(3), ${now}::timestamp(3)
      FROM picked p, stats s
      WHERE NOT s."taken" AND (SELECT id FROM run) IS NULL
      RETURNING *
    )
    SELECT (SELECT id FROM run) AS "activeRunId", p."key" AS "pickedKey", s."count", s."taken", ${otherTypesSql(w, types)} AS "otherTypes", ${peers} AS "peers", a.*
    FROM picked p CROSS JOIN stats s LEFT JOIN added a ON TRUE`));
  if (!result) throw new Error("the addNode statement returns one row");
  const { activeRunId, pickedKey, count, taken, otherTypes, peers: peerKeys, ...added } = result;
  return { activeRunId, key: pickedKey, count, taken, otherTypes, peers: peerKeys, node: added.key === null ? null : added };
}

/** updateNode's read: the node as stored (null when missing), the active run and whether the graph is checked on slices. */
export async function nodeForUpdate(tx: Tx, row: WorkflowRow, key: string, types: RuleTypes): Promise<{ activeRunId: string | null; otherTypes: boolean; node: NodeRow | null }> {
  const w = row.id;
  const [result] = await tx.$queryRaw<(NodeRow & { activeRunId: string | null; otherTypes: boolean })[]>(planned(Prisma.sql`
    SELECT ${activeDraftRunSql(w)} AS "activeRunId", ${otherTypesSql(w, types)} AS "otherTypes", n.*
    FROM (SELECT 1) one LEFT JOIN "WorkflowNode" n ON n."workflowId" = ${w} AND n."key" = ${key}`));
  if (!result) throw new Error("the updateNode read returns one row");
  const { activeRunId, otherTypes, ...node } = result;
  return { activeRunId, otherTypes, node: node.key === null ? null : node };
}

/**
 * updateNode's write: every attribute column, the config and the position as given (the service has
 * merged the input into the stored node), and `updatedAt`. Returns the row as stored, or null when the
 * node is gone. One statement text whatever changed, so the embedded database keeps it planned.
 */
export async function updateNodeStatement(tx: Tx, workflowId: string, key: string, columns: Omit<NodeColumns, "type">): Promise<NodeRow | null> {
  const [row] = await tx.$queryRaw<NodeRow[]>(planned(Prisma.sql`
    UPDATE "WorkflowNode" SET "content" = ${columns.content}::text, "provider" = ${columns.provider}::text, "model" = ${columns.model}::text,
      "params" = ${jsonSql(columns.params, "jsonb")}, "prompt" = ${columns.prompt}::text, "config" = ${jsonSql(columns.config, "json")},
      "positionX" = ${columns.positionX}::float8, "positionY" = ${columns.positionY}::float8, "updatedAt" = ${new Date().toISOString()}::timestamp(3)
    WHERE "workflowId" = ${workflowId} AND "key" = ${key}
    RETURNING *`));
  return row ?? null;
}

/**
 * removeNode: the node's type, the nodes of that type (only when `countRules` holds its type: the
 * count rules read them), the edges touching it (removed with it: the foreign keys cascade), and the
 * node deleted unless a run is active.
 */
export async function removeNodeStatement(
  tx: Tx,
  row: WorkflowRow,
  key: string,
  countRules: readonly string[],
): Promise<{ activeRunId: string | null; type: string | null; peers: string[]; touching: string[] }> {
  const w = row.id;
  const [result] = await tx.$queryRaw<{ activeRunId: string | null; type: string | null; peers: string[]; touching: string[] }[]>(planned(Prisma.sql`
    WITH run AS (SELECT ${activeDraftRunSql(w)} AS id),
    node AS (SELECT n."type" FROM "WorkflowNode" n WHERE n."workflowId" = ${w} AND n."key" = ${key}),
    gone AS (DELETE FROM "WorkflowNode" n WHERE n."workflowId" = ${w} AND n."key" = ${key} AND (SELECT id FROM run) IS NULL RETURNING n."key")
    SELECT (SELECT id FROM run) AS "activeRunId", (SELECT "type" FROM node) AS "type",
      ARRAY(
        SELECT t."key" FROM "WorkflowNode" t
        WHERE t."workflowId" = ${w} AND t."type" = (SELECT "type" FROM node) AND ${inList(Prisma.sql`t."type"`, countRules)}
        ORDER BY t."createdAt", t."key"
      ) AS "peers",
      ARRAY(SELECT e."key" FROM "WorkflowEdge" e WHERE e."workflowId" = ${w} AND (e."source" = ${key} OR e."target" = ${key}) ORDER BY e."position") AS "touching"`));
  if (!result) throw new Error("the removeNode statement returns one row");
  return result;
}

/** removeEdge: whether the edge exists, the active run, and the edge deleted unless a run is active. */
export async function removeEdgeStatement(tx: Tx, row: WorkflowRow, key: string): Promise<{ activeRunId: string | null; found: boolean }> {
  const w = row.id;
  const [result] = await tx.$queryRaw<{ activeRunId: string | null; found: boolean }[]>(planned(Prisma.sql`
    WITH run AS (SELECT ${activeDraftRunSql(w)} AS id),
    gone AS (DELETE FROM "WorkflowEdge" e WHERE e."workflowId" = ${w} AND e."key" = ${key} AND (SELECT id FROM run) IS NULL RETURNING e."key")
    SELECT (SELECT id FROM run) AS "activeRunId", EXISTS (SELECT 1 FROM "WorkflowEdge" e WHERE e."workflowId" = ${w} AND e."key" = ${key}) AS "found"`));
  if (!result) throw new Error("the removeEdge statement returns one row");
  return result;
}

/** The nodes with these keys (id and type only), in creation order; missing keys are left out. */
export async function nodesByKey(tx: Tx, workflowId: string, keys: readonly string[]): Promise<WorkflowNode[]> {
  const rows = await tx.workflowNode.findMany({
    where: { workflowId, key: { in: [...keys] } },
    orderBy: [{ createdAt: "asc" }, { key: "asc" }],
    select: { key: true, type: true },
  });
  return rows.map((row) => ({ id: row.key, type: row.type }));
}
