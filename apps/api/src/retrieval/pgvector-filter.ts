import { conditionValues, isNumberRange, type ChunkFilter, type FieldCondition, type NumberRange } from "@weft/engine";

/**
 * Turns the typed chunk filter into SQL with parameters (never values in the SQL text). Source fields
 * compare columns; a metadata condition reads the chunk's jsonb metadata: equality and any-of compare
 * JSON values (`metadata -> key = ANY(...)`, so 2025 matches only the number 2025, never the string
 * "2025"), ranges apply only where the value is a JSON number. Same semantics as `chunkMatchesFilter`.
 */

export interface SqlFilter {
  where: string;
  params: unknown[];
}

class ParamList {
  readonly values: unknown[] = [];
  constructor(private readonly first: number) {}

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.first + this.values.length - 1}`;
  }
}

function columnCondition(column: string, condition: FieldCondition, type: "text" | "integer", params: ParamList): string {
  if (isNumberRange(condition)) return type === "integer" ? rangeCondition(column, condition, params) : "FALSE";
  const values = (conditionValues(condition) ?? []).filter((value) => (type === "text" ? typeof value === "string" : Number.isInteger(value)));
  // A value of the wrong type matches nothing rather than failing the query.
  if (values.length === 0) return "FALSE";
  return values.length === 1 ? `${column} = ${params.add(values[0])}` : `${column} = ANY(${params.add(values)}::${type}[])`;
}

function rangeCondition(expression: string, range: NumberRange, params: ParamList): string {
  const parts: string[] = [];
  if (range.gte !== undefined) parts.push(`${expression} >= ${params.add(range.gte)}::double precision`);
  if (range.lte !== undefined) parts.push(`${expression} <= ${params.add(range.lte)}::double precision`);
  return parts.join(" AND ");
}

function metadataCondition(key: string, condition: FieldCondition, params: ParamList): string {
  const keyParam = `${params.add(key)}::text`;
  if (isNumberRange(condition)) {
    // The cast runs only on JSON numbers, so a string value cannot fail the query.
    const number = `(CASE WHEN jsonb_typeof(metadata -> ${keyParam}) = 'number' THEN (metadata ->> ${keyParam})::double precision END)`;
    return rangeCondition(number, condition, params);
  }
  const values = (conditionValues(condition) ?? []).map((value) => JSON.stringify(value));
  return values.length === 1
    ? `metadata -> ${keyParam} = ${params.add(values[0])}::jsonb`
    : `metadata -> ${keyParam} = ANY(${params.add(values)}::jsonb[])`;
}

export function buildPgvectorFilter(filter: ChunkFilter | undefined, firstParam: number): SqlFilter {
  const params = new ParamList(firstParam);
  const conditions: string[] = [];
  if (filter?.documentId !== undefined) conditions.push(columnCondition("document_id", filter.documentId, "text", params));
  if (filter?.source !== undefined) conditions.push(columnCondition("title", filter.source, "text", params));
  if (filter?.page !== undefined) conditions.push(columnCondition("page", filter.page, "integer", params));
  if (filter?.chunkIndex !== undefined) conditions.push(columnCondition("chunk_index", filter.chunkIndex, "integer", params));
  for (const [key, condition] of Object.entries(filter?.metadata ?? {})) conditions.push(metadataCondition(key, condition, params));
  return { where: conditions.length === 0 ? "" : `WHERE ${conditions.join(" AND ")}`, params: params.values };
}
