import { ArgsType, Field, Int, ObjectType } from "type-graphql";
import { AppError } from "../../errors/app-error.js";
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

/**
 * The one code for bad page arguments (`first`, `after`, `limit`, `afterSeq`) on every connection and
 * list: they are query arguments, refused as a GraphQL error whose `extensions.path` names the argument.
 */
export const PAGE_ARGUMENT_CODE = "BAD_USER_INPUT";

export function badPageArgument(argument: string, message: string): AppError {
  return new AppError(PAGE_ARGUMENT_CODE, message, { extensions: { path: [argument] } });
}

export function encodeCursor(key: CursorKey): string {
  return Buffer.from(`${key.at.toISOString()}|${key.id}`, "utf8").toString("base64url");
}

/** Every key this server writes is a stored timestamp, so its year is within 1..9999. */
const FIRST_YEAR = 1;
const LAST_YEAR = 9999;

/** Returns null for anything that is not a cursor this server produced (a year outside 1..9999 included). */
export function decodeCursor(cursor: string): CursorKey | null {
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const bar = text.indexOf("|");
  if (bar <= 0) return null;
  const at = new Date(text.slice(0, bar));
  const id = text.slice(bar + 1);
  if (Number.isNaN(at.getTime()) || id.length === 0) return null;
  const year = at.getUTCFullYear();
  if (year < FIRST_YEAR || year > LAST_YEAR) return null;
  return { at, id };
}

export interface PageRequest {
  size: number;
  /** Rows strictly after this key; null for the first page. */
  after: CursorKey | null;
}

/** Page size and cursor of a connection ordered by (time, id), checked once for every connection. */
export function readPage(args: { first?: number | null; after?: string | null }): PageRequest {
  const size = readBound("first", args.first, { max: MAX_PAGE_SIZE, fallback: DEFAULT_PAGE_SIZE });
  if (!args.after) return { size, after: null };
  const after = decodeCursor(args.after);
  if (!after) throw badPageArgument("after", "after is not a cursor of this list");
  return { size, after };
}

/**
 * A whole-number bound between 1 and `max` (`first`, `limit`): absent means `fallback`; anything else,
 * negative numbers included, is refused rather than clamped.
 */
export function readBound(argument: string, value: number | null | undefined, bounds: { max: number; fallback: number }): number {
  if (value === null || value === undefined) return bounds.fallback;
  if (!Number.isInteger(value) || value < 1 || value > bounds.max) {
    throw badPageArgument(argument, `${argument} must be between 1 and ${bounds.max}`);
  }
  return value;
}

/** Cursors of lists read by position (a document's chunks): `<kind>:<n>`, base64url. */
export function encodeOffsetCursor(kind: string, offset: number): string {
  return Buffer.from(`${kind}:${offset}`, "utf8").toString("base64url");
}

export function readOffsetCursor(kind: string, after: string | null | undefined): number {
  if (!after) return 0;
  const match = new RegExp(`^${kind}:(\\d{1,9})$`).exec(Buffer.from(after, "base64url").toString("utf8"));
  if (!match) throw badPageArgument("after", "after is not a cursor of this list");
  return Number(match[1]);
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
