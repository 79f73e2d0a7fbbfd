import { createHash } from "node:crypto";
import type { CachedAnswer, SemanticCacheEntry, SemanticCacheHit, SemanticCachePage, SemanticCachePut, SemanticCacheStore } from "@weft/engine";
import { cacheEntryId, checkCacheLookup, checkCachePage, checkCachePut, expiryTime } from "@weft/providers";
import { sqlLiteral } from "../db/sql-literal.js";
import { shouldSuspendIndex } from "./bulk-load-policy.js";
import { guardedPgvector, toVectorLiteral, type SqlClient } from "./pgvector-vector-store.js";
import { join } from "node:path";
import { ScopeIndexFiles } from "./scope-index-files.js";
import { ScopeIndexes } from "./scope-indexes.js";
import { cacheScopeSource, guardedSource } from "./pgvector-cache-scope-source.js";

export interface PgvectorSemanticCacheOptions {
  /** The embedder whose vectors the cache holds (one table per model and dimension). */
  model: string;
  dimension: number;
  /** Epoch milliseconds; injectable so expiry can be tested without waiting. */
  now?: () => number;
  /**
   * Answer lookups from an in-memory HNSW index of each scope (usearch), built on a worker thread from the
   * table on a scope's first lookup and kept in step with this store's writes; the table stays the record.
   * Only where this process is the database's one writer (the embedded database).
   */
  memoryIndex?: {
    /** Entries held in memory over all scopes (about 1.3 KB each at 512 dimensions). */
    maxEntries: number;
    /** Lookups wait for their scope's index instead of asking the table meanwhile (tests, benchmarks). */
    waitForIndex?: boolean;
    /**
     * Where built scopes are saved (a folder per table inside), so that the next process loads them,
     * checked against the table, instead of building them again; absent: built from the table each time.
     */
    directory?: string;
    onUnavailable?: (scope: string, error: unknown) => void;
  };
}

interface EntryRow {
  id: string;
  scope: string;
  query: string;
  answer: CachedAnswer;
  created_at: string | number;
  expires_at: string | number | null;
  similarity?: number;
}

/** Rows per lookup: relaxed-order filtered scans may return the nearest entry second, so a few are compared. */
const LOOKUP_CANDIDATES = 4;
/** HNSW candidate list of a lookup (pgvector's default, set so a server's own setting does not change it). */
export const CACHE_EF_SEARCH = 40;
/**
 * How far under the threshold an indexed neighbour may be and still be confirmed in the table: the index
 * compares half-precision copies, about 1e-3 from the exact similarity.
 */
const INDEX_SIMILARITY_MARGIN = 0.01;
const ANALYZE_MIN_CHANGES = 50;
const BATCH_ROWS = 500;

export function pgvectorCacheTableName(model: string, dimension: number): string {
  return `weft_cache_${createHash("sha256").update(`${model}:${dimension}`).digest("hex").slice(0, 24)}`;
}

const toEntry = (row: EntryRow): SemanticCacheEntry => ({
  id: row.id,
  scope: row.scope,
  query: row.query,
  answer: row.answer,
  createdAt: Number(row.created_at),
  expiresAt: row.expires_at === null ? null : Number(row.expires_at),
});

function bestAbove(rows: readonly EntryRow[], threshold: number): SemanticCacheHit | null {
  const best = rows.reduce<EntryRow | undefined>((top, row) => (top === undefined || (row.similarity ?? 0) > (top.similarity ?? 0) ? row : top), undefined);
  const similarity = Math.max(0, Math.min(1, best?.similarity ?? 0));
  return best && similarity >= threshold ? { entry: toEntry(best), similarity } : null;
}

/**
 * Semantic-cache entries in the embedded database (pgvector): one table per embedding model with an
 * HNSW index on cosine distance, and B-tree indexes on (scope, created_at) and on expiry. A lookup
 * is one statement (sent with its SET LOCAL in one message) asking for the nearest live entries of one
 * scope: with current statistics (kept by `noteChanges`) the planner compares a small scope's entries
 * exactly through its B-tree index and walks the HNSW graph (ef_search 40) for a large one. It keeps the best if its
 * similarity reaches the threshold. HNSW is approximate: a lookup can miss an entry it should have
 * found (a cache miss, never a wrong answer).
 */
export class PgvectorSemanticCache implements SemanticCacheStore {
  readonly id = "pgvector";
  readonly model: string;
  readonly dimension: number;
  private readonly table: string;
  private readonly now: () => number;
  private ready: Promise<void> | undefined;
  private changedSinceAnalyze = 0;
  private rowsAtAnalyze = 0;
  private readonly indexes: ScopeIndexes | undefined;

  constructor(
    private readonly sql: SqlClient,
    private readonly options: PgvectorSemanticCacheOptions,
  ) {
    this.model = options.model;
    this.dimension = options.dimension;
    this.table = pgvectorCacheTableName(options.model, options.dimension);
    this.now = options.now ?? Date.now;
    const memory = options.memoryIndex;
    this.indexes =
      memory &&
      new ScopeIndexes(
        guardedSource(cacheScopeSource(sql, this.table, options.dimension, this.now), (body) => this.run("cache index", body)),
        {
          dimension: options.dimension,
          maxEntries: memory.maxEntries,
          ...(memory.onUnavailable ? { onUnavailable: memory.onUnavailable } : {}),
          ...(memory.directory ? { files: new ScopeIndexFiles(join(memory.directory, this.table), this.table, options.dimension) } : {}),
        },
      );
  }

  /** Builds the scope's in-memory index now if the store keeps one, and waits for it (a warm-up). */
  async prepareScope(scope: string): Promise<boolean> {
    return (await this.indexes?.whenReady(scope)) !== undefined;
  }

  async lookup(scope: string, vector: readonly number[], threshold: number, signal?: AbortSignal): Promise<SemanticCacheHit | null> {
    checkCacheLookup(this.id, this.dimension, scope, vector, threshold);
    return this.run("cache lookup", async () => {
      signal?.throwIfAborted();
      const indexed = await this.lookupIndexed(scope, vector, threshold);
      if (indexed !== undefined) return indexed;
      // One message, no explicit transaction: a lookup is on the path of every cached node. Values are
      // literals (the vector is finite numbers, checked above), because the simple query protocol costs
      // PGlite about half of what a parameterised statement does, and it lets SET LOCAL ride along.
      const question = `'${toVectorLiteral(vector)}'::vector`;
      const live = `scope = ${sqlLiteral(scope)} AND (expires_at IS NULL OR expires_at > ${Math.trunc(this.now())})`;
      // The question appears once (its 512 or more numbers are parsed once): the order is by the distance column.
      const nearest = (order: string, limit: number) =>
        `SELECT id, scope, query, answer, created_at, expires_at, 1 - distance AS similarity FROM (
           SELECT id, scope, query, answer, created_at, expires_at, embedding <=> ${question} AS distance
           FROM ${this.table} WHERE ${live} ORDER BY ${order} LIMIT ${limit}) nearest`;
      let rows = (await this.sql.script<EntryRow>(`SET LOCAL hnsw.ef_search = ${CACHE_EF_SEARCH}; ${nearest("distance", LOOKUP_CANDIDATES)}`)).rows;
      if (rows.length === 0) {
        // An HNSW scan whose candidates the scope filter all removed (a mid-sized scope): order by an
        // expression the index cannot serve, so the scope's rows are compared exactly.
        rows = (await this.sql.script<EntryRow>(nearest(`(embedding <=> ${question}) + 0`, 1))).rows;
      }
      return bestAbove(rows, threshold);
    });
  }

  /**
   * The lookup through the scope's in-memory index: its nearest entries close enough to the threshold are
   * read from the table with their exact similarity, if they are still live. Undefined when the scope has
   * no index yet, or when a neighbour has expired or gone (a live entry behind it is then looked up in
   * the table).
   */
  private async lookupIndexed(scope: string, vector: readonly number[], threshold: number): Promise<SemanticCacheHit | null | undefined> {
    const index = this.options.memoryIndex?.waitForIndex ? await this.indexes?.whenReady(scope) : this.indexes?.ready(scope);
    if (!index) return undefined;
    const near = index.nearest(Float32Array.from(vector), LOOKUP_CANDIDATES).filter((n) => n.similarity >= threshold - INDEX_SIMILARITY_MARGIN);
    if (near.length === 0) return null;
    const question = `'${toVectorLiteral(vector)}'::vector`;
    const rows = (
      await this.sql.script<EntryRow>(
        `SELECT id, scope, query, answer, created_at, expires_at, 1 - (embedding <=> ${question}) AS similarity FROM ${this.table}
         WHERE id IN (${near.map((n) => sqlLiteral(n.id)).join(", ")}) AND scope = ${sqlLiteral(scope)}
           AND (expires_at IS NULL OR expires_at > ${Math.trunc(this.now())})`,
      )
    ).rows;
    if (rows.length < near.length) {
      // Expired (the sweep has not removed them yet): out of the index, so the next lookups need not come here.
      const live = new Set(rows.map((row) => row.id));
      for (const gone of near.filter((n) => !live.has(n.id))) index.remove(gone.id);
      return undefined;
    }
    return bestAbove(rows, threshold);
  }

  async put(scope: string, put: SemanticCachePut): Promise<SemanticCacheEntry> {
    const answer = checkCachePut(this.id, this.dimension, scope, put);
    return this.run("cache store", async () => {
      const now = this.now();
      const result = await this.sql.query<EntryRow>(
        `INSERT INTO ${this.table} (id, scope, query, answer, created_at, expires_at, embedding)
         VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7::vector)
         ON CONFLICT (id) DO UPDATE SET answer = EXCLUDED.answer, created_at = EXCLUDED.created_at,
           expires_at = EXCLUDED.expires_at, embedding = EXCLUDED.embedding
         RETURNING id, scope, query, answer, created_at, expires_at`,
        [cacheEntryId(scope, put.query), scope, put.query.trim(), answer, now, expiryTime(now, put.ttlSeconds), toVectorLiteral(put.vector)],
      );
      await this.noteChanges(1);
      const entry = toEntry(result.rows[0] as EntryRow);
      this.indexes?.upsert(scope, [{ id: entry.id, vector: Float32Array.from(put.vector) }]);
      return entry;
    });
  }

  /**
   * Multi-row inserts of 500. A load that is large next to the table (bulk-load-policy.ts) drops the
   * HNSW index and builds it once afterwards, as ingestion does: inserting into the graph row by row
   * is the slow part in PGlite.
   */
  async putMany(scope: string, puts: readonly SemanticCachePut[]): Promise<void> {
    const rows = puts.map((put) => ({ put, answer: checkCachePut(this.id, this.dimension, scope, put) }));
    if (rows.length === 0) return;
    await this.run("cache store", async () => {
      const existing = Number((await this.sql.query<{ total: string | number }>(`SELECT count(*) AS total FROM ${this.table}`)).rows[0]?.total ?? 0);
      const suspend = shouldSuspendIndex(rows.length, existing);
      if (suspend) await this.sql.query(`DROP INDEX IF EXISTS ${this.table}_hnsw`);
      try {
        const now = this.now();
        for (let start = 0; start < rows.length; start += BATCH_ROWS) await this.insertRows(scope, rows.slice(start, start + BATCH_ROWS), now);
      } finally {
        if (suspend) await this.createHnswIndex();
      }
      await this.noteChanges(rows.length);
      this.indexes?.upsert(
        scope,
        rows.map(({ put }) => ({ id: cacheEntryId(scope, put.query), vector: Float32Array.from(put.vector) })),
      );
    });
  }

  private async insertRows(scope: string, rows: readonly { put: SemanticCachePut; answer: string }[], now: number): Promise<void> {
    const values: string[] = [];
    const params: unknown[] = [];
    // One statement cannot update a row twice: the last entry of a repeated question wins, as with put.
    const unique = new Map(rows.map((row) => [cacheEntryId(scope, row.put.query), row]));
    for (const [id, { put, answer }] of unique) {
      const base = params.length;
      values.push(`($${base + 1}, $${base + 2}, $${base + 3}, $${base + 4}::jsonb, $${base + 5}, $${base + 6}, $${base + 7}::vector)`);
      params.push(id, scope, put.query.trim(), answer, now, expiryTime(now, put.ttlSeconds), toVectorLiteral(put.vector));
    }
    await this.sql.query(
      `INSERT INTO ${this.table} (id, scope, query, answer, created_at, expires_at, embedding) VALUES ${values.join(", ")}
       ON CONFLICT (id) DO UPDATE SET answer = EXCLUDED.answer, created_at = EXCLUDED.created_at,
         expires_at = EXCLUDED.expires_at, embedding = EXCLUDED.embedding`,
      params,
    );
  }

  async list(scope: string, page: { limit: number; offset?: number }): Promise<SemanticCachePage> {
    const { limit, offset } = checkCachePage(this.id, page);
    return this.run("cache list", async () => {
      const live = "scope = $1 AND (expires_at IS NULL OR expires_at > $2)";
      const [rows, count] = await Promise.all([
        this.sql.query<EntryRow>(
          `SELECT id, scope, query, answer, created_at, expires_at FROM ${this.table} WHERE ${live}
           ORDER BY created_at DESC, id LIMIT $3 OFFSET $4`,
          [scope, this.now(), limit, offset],
        ),
        this.sql.query<{ total: string | number }>(`SELECT count(*) AS total FROM ${this.table} WHERE ${live}`, [scope, this.now()]),
      ]);
      return { entries: rows.rows.map(toEntry), total: Number(count.rows[0]?.total ?? 0) };
    });
  }

  async clear(scope: string): Promise<number> {
    return this.run("cache clear", async () => {
      const removed = await this.deleteWhere("scope = $1", [scope]);
      this.indexes?.drop(scope);
      return removed;
    });
  }

  async removeExpired(): Promise<number> {
    return this.run("cache expiry", () => this.deleteWhere("expires_at <= $1", [this.now()]));
  }

  private async deleteWhere(condition: string, params: unknown[]): Promise<number> {
    if (this.indexes) return this.deleteIndexed(condition, params);
    const result = await this.sql.query<{ removed: string | number }>(
      `WITH removed AS (DELETE FROM ${this.table} WHERE ${condition} RETURNING 1) SELECT count(*) AS removed FROM removed`,
      params,
    );
    const removed = Number(result.rows[0]?.removed ?? 0);
    if (removed > 0) await this.noteChanges(removed);
    return removed;
  }

  /** A delete that also takes the removed entries out of the in-memory indexes. */
  private async deleteIndexed(condition: string, params: unknown[]): Promise<number> {
    const result = await this.sql.query<{ id: string; scope: string }>(`DELETE FROM ${this.table} WHERE ${condition} RETURNING id, scope`, params);
    const byScope = new Map<string, string[]>();
    for (const row of result.rows) byScope.set(row.scope, [...(byScope.get(row.scope) ?? []), row.id]);
    for (const [scope, ids] of byScope) this.indexes?.remove(scope, ids);
    if (result.rows.length > 0) await this.noteChanges(result.rows.length);
    return result.rows.length;
  }

  /**
   * Keeps the planner's statistics current: without them it scans a large scope exactly through the
   * scope index instead of using HNSW (and PGlite has no autovacuum to collect them). Runs after
   * writes that changed a fifth of the table since the last time (at least 50 rows).
   */
  private async noteChanges(rows: number): Promise<void> {
    this.changedSinceAnalyze += rows;
    if (this.changedSinceAnalyze < Math.max(ANALYZE_MIN_CHANGES, this.rowsAtAnalyze / 5)) return;
    await this.sql.query(`ANALYZE ${this.table}`);
    const count = await this.sql.query<{ total: string | number }>(`SELECT count(*) AS total FROM ${this.table}`);
    this.rowsAtAnalyze = Number(count.rows[0]?.total ?? 0);
    this.changedSinceAnalyze = 0;
  }

  /** The build is much faster when the graph fits in maintenance_work_mem (64 MB by default). */
  private async createHnswIndex(): Promise<void> {
    const create = `CREATE INDEX IF NOT EXISTS ${this.table}_hnsw ON ${this.table} USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 128)`;
    if (!this.sql.transaction) return void (await this.sql.query(create));
    await this.sql.transaction(async (tx) => {
      await tx.query("SET LOCAL maintenance_work_mem = '512MB'");
      await tx.query(create);
    });
  }

  private prepare(): Promise<void> {
    this.ready ??= (async () => {
      await this.sql.query("CREATE EXTENSION IF NOT EXISTS vector");
      await this.sql.query(
        `CREATE TABLE IF NOT EXISTS ${this.table} (
          id text PRIMARY KEY, scope text NOT NULL, query text NOT NULL, answer jsonb NOT NULL,
          created_at bigint NOT NULL, expires_at bigint, embedding vector(${this.dimension}) NOT NULL)`,
      );
      await this.sql.query(`CREATE INDEX IF NOT EXISTS ${this.table}_scope ON ${this.table} (scope, created_at DESC)`);
      await this.sql.query(`CREATE INDEX IF NOT EXISTS ${this.table}_expiry ON ${this.table} (expires_at) WHERE expires_at IS NOT NULL`);
      await this.createHnswIndex();
    })().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  private run<T>(operation: string, body: () => Promise<T>): Promise<T> {
    return guardedPgvector(() => this.prepare(), operation, body);
  }
}
