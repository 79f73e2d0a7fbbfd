import type { VectorSearchQuery } from "@weft/engine";

/**
 * Turns a store-neutral equality filter into SQL. Source keys (documentId, title, chunkIndex, page)
 * compare columns; every other key must be present in the chunk's metadata with the same JSON value
 * (`metadata @> {...}`), so 2025 matches only the number 2025, never the string "2025".
 */

const COLUMNS: Record<string, { column: string; type: "string" | "number" }> = {
  documentId: { column: "document_id", type: "string" },
  title: { column: "title", type: "string" },
  chunkIndex: { column: "chunk_index", type: "number" },
  page: { column: "page", type: "number" },
};

export interface SqlFilter {
  where: string;
  params: unknown[];
}

export function buildPgvectorFilter(filter: VectorSearchQuery["filter"], firstParam: number): SqlFilter {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const metadata: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(filter ?? {})) {
    const column = COLUMNS[key];
    if (column === undefined) {
      metadata[key] = value;
      continue;
    }
    // A value of the wrong type matches nothing rather than failing the query.
    if (typeof value !== column.type) {
      conditions.push("FALSE");
      continue;
    }
    params.push(value);
    conditions.push(`${column.column} = $${firstParam + params.length - 1}`);
  }
  if (Object.keys(metadata).length > 0) {
    params.push(JSON.stringify(metadata));
    conditions.push(`metadata @> $${firstParam + params.length - 1}::jsonb`);
  }
  return { where: conditions.length === 0 ? "" : `WHERE ${conditions.join(" AND ")}`, params };
}
