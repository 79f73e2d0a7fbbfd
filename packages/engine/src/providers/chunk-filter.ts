import { z } from "zod";

/**
 * A typed metadata filter for knowledge-base searches (the `filter` of a `retrieve` node, the vector
 * stores' `search`). Every condition present must hold (AND); a list means "any of these" (OR within
 * one field); a range `{gte, lte}` is inclusive and applies to numbers only. Stores translate it into
 * their own query language (SQL parameters, Weaviate filters); `chunkMatchesFilter` is the reference
 * semantics that the in-memory stores use and the contract suite checks every store against.
 *
 * - `documentId`: the chunk's document id.
 * - `source`: the document's title, the source name people see (a file name, a page title).
 * - `page`, `chunkIndex`: numbers on the chunk's source; a chunk without a page fails a page condition.
 * - `metadata`: the chunk's own metadata by key; a chunk without the key fails the condition, and a
 *   number matches only a number (2025 never matches the string "2025").
 */

export type FilterScalar = string | number | boolean;

/** Inclusive bounds; at least one is given. */
export interface NumberRange {
  gte?: number;
  lte?: number;
}

export type FieldCondition = FilterScalar | readonly FilterScalar[] | NumberRange;

export interface ChunkFilter {
  documentId?: string | readonly string[];
  source?: string | readonly string[];
  page?: number | readonly number[] | NumberRange;
  chunkIndex?: number | readonly number[] | NumberRange;
  metadata?: Readonly<Record<string, FieldCondition>>;
}

export const CHUNK_FILTER_LIMITS = {
  /** Values in one any-of list. */
  maxValues: 100,
  maxMetadataKeys: 20,
  maxKeyLength: 100,
  maxStringLength: 1000,
} as const;

const text = z.string().min(1).max(CHUNK_FILTER_LIMITS.maxStringLength);
const finite = z.number().refine(Number.isFinite, "must be a finite number");
const integer = z.number().int();
const scalar = z.union([text, finite, z.boolean()]);
const list = <T extends z.ZodType>(item: T) => z.array(item).min(1).max(CHUNK_FILTER_LIMITS.maxValues);
const range = z
  .strictObject({ gte: finite.optional(), lte: finite.optional() })
  .refine((value) => value.gte !== undefined || value.lte !== undefined, "a range needs gte, lte or both")
  .refine((value) => value.gte === undefined || value.lte === undefined || value.gte <= value.lte, "gte must not exceed lte");

/** Validates untrusted JSON (a node's config, an API input) into a ChunkFilter; errors carry the path. */
export const chunkFilterSchema = z.strictObject({
  documentId: z.union([text, list(text)]).optional(),
  source: z.union([text, list(text)]).optional(),
  page: z.union([integer, list(integer), range]).optional(),
  chunkIndex: z.union([integer, list(integer), range]).optional(),
  metadata: z
    .record(z.string().min(1).max(CHUNK_FILTER_LIMITS.maxKeyLength), z.union([scalar, list(scalar), range]))
    .refine((value) => Object.keys(value).length <= CHUNK_FILTER_LIMITS.maxMetadataKeys, `at most ${CHUNK_FILTER_LIMITS.maxMetadataKeys} metadata keys`)
    .optional(),
}) satisfies z.ZodType<ChunkFilter>;

export function isNumberRange(condition: FieldCondition | undefined): condition is NumberRange {
  return typeof condition === "object" && condition !== null && !Array.isArray(condition);
}

/** The values of an equality or any-of condition; undefined for a range. */
export function conditionValues(condition: FieldCondition): readonly FilterScalar[] | undefined {
  if (isNumberRange(condition)) return undefined;
  return Array.isArray(condition) ? condition : [condition as FilterScalar];
}

/** Whether one value satisfies one condition (the reference every store follows). */
export function valueMatches(value: unknown, condition: FieldCondition): boolean {
  if (isNumberRange(condition)) {
    if (typeof value !== "number") return false;
    return (condition.gte === undefined || value >= condition.gte) && (condition.lte === undefined || value <= condition.lte);
  }
  return (conditionValues(condition) ?? []).some((wanted) => wanted === value);
}

/** The chunk fields a filter reads. */
export interface FilterableChunk {
  source: { documentId: string; title: string; chunkIndex: number; page?: number | null };
  metadata?: Readonly<Record<string, FilterScalar>>;
}

export function chunkMatchesFilter(chunk: FilterableChunk, filter: ChunkFilter | undefined): boolean {
  if (!filter) return true;
  const { source } = chunk;
  if (filter.documentId !== undefined && !valueMatches(source.documentId, filter.documentId)) return false;
  if (filter.source !== undefined && !valueMatches(source.title, filter.source)) return false;
  if (filter.page !== undefined && !valueMatches(source.page ?? undefined, filter.page)) return false;
  if (filter.chunkIndex !== undefined && !valueMatches(source.chunkIndex, filter.chunkIndex)) return false;
  for (const [key, condition] of Object.entries(filter.metadata ?? {})) {
    const metadata = chunk.metadata ?? {};
    if (!Object.hasOwn(metadata, key) || !valueMatches(metadata[key], condition)) return false;
  }
  return true;
}

/** True when the filter has no condition at all (no WHERE clause needed). */
export function isEmptyFilter(filter: ChunkFilter | undefined): boolean {
  if (!filter) return true;
  const { metadata, ...rest } = filter;
  return Object.values(rest).every((value) => value === undefined) && Object.keys(metadata ?? {}).length === 0;
}
