import { ArgsType, Field, Int, ObjectType } from "type-graphql";
import type { ClassType } from "type-graphql";

/**
 * Relay-style connections over a stable sort key (a timestamp, then the id to break ties). Cursors are
 * opaque base64 of `<iso time>|<id>`; clients must not parse them.
 */

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

@ArgsType()
export class PaginationArgs {
  @Field(() => Int, { nullable: true, description: `Page size, 1..${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE}).` })
  first?: number | null;

  @Field(() => String, { nullable: true, description: "Cursor of the last item of the previous page." })
  after?: string | null;
}

@ObjectType()
export class PageInfo {
  @Field(() => Boolean)
  hasNextPage!: boolean;

  @Field(() => String, { nullable: true })
  endCursor!: string | null;
}

export interface CursorKey {
  at: Date;
  id: string;
}

export function encodeCursor(key: CursorKey): string {
  return Buffer.from(`${key.at.toISOString()}|${key.id}`, "utf8").toString("base64url");
}

/** Returns null for anything that is not a cursor this server produced. */
export function decodeCursor(cursor: string): CursorKey | null {
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const bar = text.indexOf("|");
  if (bar <= 0) return null;
  const at = new Date(text.slice(0, bar));
  const id = text.slice(bar + 1);
  if (Number.isNaN(at.getTime()) || id.length === 0) return null;
  return { at, id };
}

export type PageSizeResult = { ok: true; size: number } | { ok: false; message: string };

export function resolvePageSize(first: number | null | undefined): PageSizeResult {
  if (first === null || first === undefined) return { ok: true, size: DEFAULT_PAGE_SIZE };
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE) {
    return { ok: false, message: `first must be between 1 and ${MAX_PAGE_SIZE}` };
  }
  return { ok: true, size: first };
}

/**
 * Prisma `where` fragment selecting rows strictly after the cursor in descending (field, id) order,
 * the order every list uses (newest first).
 */
export function afterCursorWhere(field: string, cursor: CursorKey): Record<string, unknown> {
  return {
    OR: [{ [field]: { lt: cursor.at } }, { [field]: cursor.at, id: { lt: cursor.id } }],
  };
}

export interface Page<T> {
  edges: { cursor: string; node: T }[];
  pageInfo: PageInfo;
  totalCount: number;
}

/**
 * Builds a page from rows fetched with `take: size + 1` (the extra row only tells whether another page
 * exists) in (field desc, id desc) order.
 */
export function buildPage<Row extends { id: string }, T>(
  rows: Row[],
  size: number,
  totalCount: number,
  keyOf: (row: Row) => Date,
  toNode: (row: Row) => T,
): Page<T> {
  const visible = rows.slice(0, size);
  const edges = visible.map((row) => ({ cursor: encodeCursor({ at: keyOf(row), id: row.id }), node: toNode(row) }));
  const pageInfo = new PageInfo();
  pageInfo.hasNextPage = rows.length > size;
  pageInfo.endCursor = edges.at(-1)?.cursor ?? null;
  return { edges, pageInfo, totalCount };
}

/**
 * Declares `<Name>Edge` and `<Name>Connection` object types for a node type:
 * `const { Connection: WorkflowConnection } = connectionTypes("Workflow", () => Workflow)`.
 */
export function connectionTypes<T extends object>(name: string, nodeType: () => ClassType<T>) {
  @ObjectType(`${name}Edge`)
  class Edge {
    @Field(() => String)
    cursor!: string;

    @Field(nodeType)
    node!: T;
  }

  @ObjectType(`${name}Connection`)
  class Connection {
    @Field(() => [Edge])
    edges!: Edge[];

    @Field(() => PageInfo)
    pageInfo!: PageInfo;

    @Field(() => Int)
    totalCount!: number;
  }

  return { Edge, Connection };
}
