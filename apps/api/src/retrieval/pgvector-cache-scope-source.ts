import type { SqlClient } from "./pgvector-vector-store.js";
import type { ScopeSource } from "./scope-indexes.js";
import type { ScopeEntries, ScopeVectors } from "./scope-vector-index.js";

/**
 * Rows per page when a scope's vectors are read to build its index (about 2 KB each at 512 dimensions):
 * 10,000 read 100,000 entries about a fifth faster than 5,000, in pages of 20 MB.
 */
const INDEX_PAGE_ROWS = 10_000;
/** Ids per statement when the entries a saved graph lacks are read. */
const IDS_PER_READ = 5_000;

/** A vector as pgvector's binary output (`vector_send`) gives it: dimension, unused, then big-endian floats. */
function readVectorSend(bytes: Uint8Array, into: Float32Array, offset: number, dimension: number): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < dimension; i++) into[offset + i] = view.getFloat32(4 + 4 * i, false);
}

/** A semantic-cache table as the in-memory indexes read it (scope-indexes.ts): a scope's live entries. */
export function cacheScopeSource(sql: SqlClient, table: string, dimension: number, now: () => number): ScopeSource {
  const live = "scope = $1 AND (expires_at IS NULL OR expires_at > $2)";

  /** The live entries of a scope (or those among `only`) with their vectors, in pages (keyset on the id), in pgvector's binary form. */
  async function readVectors(scope: string, only: readonly string[] | null): Promise<ScopeVectors> {
    const scoped: ScopeVectors = { ids: [], createdAt: [], pages: [] };
    for (let after = ""; ; ) {
      const page = await sql.query<{ id: string; created_at: string | number; vector: Uint8Array }>(
        `SELECT id, created_at, vector_send(embedding) AS vector FROM ${table}
         WHERE ${live} AND id > $3 ${only ? "AND id = ANY($4::text[])" : ""} ORDER BY id LIMIT ${INDEX_PAGE_ROWS}`,
        only ? [scope, now(), after, only] : [scope, now(), after],
      );
      const vectors = new Float32Array(page.rows.length * dimension);
      page.rows.forEach((row, i) => {
        scoped.ids.push(row.id);
        scoped.createdAt.push(Number(row.created_at));
        readVectorSend(row.vector, vectors, i * dimension, dimension);
      });
      scoped.pages.push(vectors);
      if (page.rows.length < INDEX_PAGE_ROWS) return scoped;
      after = (page.rows.at(-1) as { id: string }).id;
    }
  }

  return {
    async count(scope) {
      const count = await sql.query<{ total: string | number }>(`SELECT count(*) AS total FROM ${table} WHERE scope = $1`, [scope]);
      return Number(count.rows[0]?.total ?? 0);
    },
    vectors: (scope) => readVectors(scope, null),
    async entries(scope): Promise<ScopeEntries> {
      const rows = await sql.query<{ id: string; created_at: string | number }>(`SELECT id, created_at FROM ${table} WHERE ${live}`, [scope, now()]);
      return { ids: rows.rows.map((row) => row.id), createdAt: rows.rows.map((row) => Number(row.created_at)) };
    },
    async vectorsOf(scope, ids) {
      const parts: ScopeVectors[] = [];
      for (let start = 0; start < ids.length; start += IDS_PER_READ) parts.push(await readVectors(scope, ids.slice(start, start + IDS_PER_READ)));
      return { ids: parts.flatMap((part) => part.ids), createdAt: parts.flatMap((part) => part.createdAt), pages: parts.flatMap((part) => part.pages) };
    },
  };
}

/** The source with each read run through `guard` (the store's: the table made first, errors in its terms). */
export function guardedSource(source: ScopeSource, guard: <T>(body: () => Promise<T>) => Promise<T>): ScopeSource {
  return {
    count: (scope) => guard(() => source.count(scope)),
    vectors: (scope) => guard(() => source.vectors(scope)),
    entries: (scope) => guard(() => source.entries(scope)),
    vectorsOf: (scope, ids) => guard(() => source.vectorsOf(scope, ids)),
  };
}
