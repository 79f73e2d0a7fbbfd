import { createHash } from "node:crypto";
import {
  mergeSearchResults,
  neighbourRanges,
  orderNeighbours,
  type ChunkAnchor,
  type MultiVectorSearchQuery,
  type PositionedChunk,
  type ScoredChunk,
  type StoredChunk,
  type VectorSearchQuery,
  type VectorStore,
} from "@weft/engine";
import {
  checkCollectionDimension,
  checkMultiSearchQuery,
  checkNeighbourQuery,
  checkNewDimension,
  checkSearchQuery,
  checkVectorDimension,
  collectionNotFound,
  VectorStoreError,
} from "@weft/providers";
import { buildPgvectorFilter } from "./pgvector-filter.js";

/** The part of the database's raw SQL handle this store needs; PGlite and `pg` both fit (see db/raw-sql.ts). */
export interface SqlClient {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<{ rows: Row[] }>;
  /** Several statements in one message, values as literals; the last one's rows (see RawQueryable.script). */
  script<Row = Record<string, unknown>>(sql: string): Promise<{ rows: Row[] }>;
  transaction?<T>(work: (tx: Omit<SqlClient, "transaction">) => Promise<T>): Promise<T>;
}

export interface PgvectorStoreOptions {
  /**
   * HNSW candidate list size at query time; higher = better recall, slower. Default 100 (pgvector's own
   * default, 40, misses too many true neighbours at 100k chunks: see docs/benchmarks.md).
   */
  efSearch?: number;
  /**
   * HNSW build parameters. Defaults m 16 and ef_construction 128 (pgvector's is 64): at 100k chunks the
   * better-connected graph lifts recall@10 from 0.88 to 0.98 at ef_search 100 (docs/benchmarks.md).
   */
  m?: number;
  efConstruction?: number;
  /** Rows per INSERT statement. */
  batchSize?: number;
  /** maintenance_work_mem while building the HNSW index (default 256MB); the build is far faster when the graph fits. */
  indexBuildMemory?: `${number}MB` | `${number}GB`;
}

const REGISTRY = "weft_vector_collections";
export const DEFAULT_EF_SEARCH = 100;
const INDEX_BUILD_MEMORY = "256MB";

interface ChunkRow {
  id: string;
  text: string;
  document_id: string;
  title: string;
  chunk_index: number;
  page: number | null;
}

interface ScoredRow extends ChunkRow {
  score: number | null;
}

const toPositioned = (row: ChunkRow): PositionedChunk => ({
  id: row.id,
  text: row.text,
  source: { documentId: row.document_id, title: row.title, chunkIndex: row.chunk_index, page: row.page },
});

const toScored = (row: ScoredRow): ScoredChunk => ({
  ...toPositioned(row),
  score: Math.max(0, Math.min(1, Number.isFinite(row.score) ? (row.score as number) : 0)),
});

/** pgvector stores float4: nine significant digits round-trip exactly and keep the SQL text short. */
export const toVectorLiteral = (vector: readonly number[]) => `[${vector.map((value) => (value === 0 ? "0" : value.toPrecision(9))).join(",")}]`;

/** One table per collection; the name is a hash so any collection name maps to a valid identifier. */
export function pgvectorTableName(collection: string): string {
  return `weft_chunks_${createHash("sha256").update(collection).digest("hex").slice(0, 24)}`;
}

/**
 * pgvector inside the embedded database (PGlite's `vector` extension): one table per knowledge base
 * with a `vector(dim)` column and an HNSW index on cosine distance. Scores are cosine similarity
 * (1 − cosine distance), clamped to [0, 1]. No keyword search: `text` and `alpha` are ignored, so a
 * hybrid query ranks exactly as alpha 1 (vectors only) would.
 */
export class PgvectorVectorStore implements VectorStore {
  readonly id = "pgvector";
  readonly keywordSearch = false;
  private ready: Promise<void> | undefined;
  private readonly dimensions = new Map<string, number>();

  constructor(
    private readonly sql: SqlClient,
    private readonly options: PgvectorStoreOptions = {},
  ) {}

  async ensureCollection(collection: string, dimension: number): Promise<void> {
    checkNewDimension(this.id, dimension);
    await this.run("ensure collection", async () => {
      const existing = await this.readDimension(collection);
      if (existing !== undefined) return checkCollectionDimension(this.id, collection, existing, dimension);
      const table = pgvectorTableName(collection);
      await this.sql.query(
        `CREATE TABLE IF NOT EXISTS ${table} (
          id text PRIMARY KEY, document_id text NOT NULL, title text NOT NULL, chunk_index integer NOT NULL,
          page integer, text text NOT NULL, metadata jsonb NOT NULL DEFAULT '{}', embedding vector(${dimension}) NOT NULL)`,
      );
      await this.sql.query(`CREATE INDEX IF NOT EXISTS ${table}_doc ON ${table} (document_id)`);
      await this.createHnswIndex(table);
      const inserted = await this.sql.query<{ dimension: number }>(
        `INSERT INTO ${REGISTRY} (name, table_name, dimension) VALUES ($1, $2, $3)
         ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING dimension`,
        [collection, table, dimension],
      );
      const recorded = inserted.rows[0]?.dimension ?? dimension;
      this.dimensions.set(collection, recorded);
      checkCollectionDimension(this.id, collection, recorded, dimension);
    });
  }

  /**
   * Runs a bulk load with the HNSW index dropped and builds it once afterwards: building the graph in
   * one pass is several times faster than inserting row by row into it. Searches during `work` scan
   * the table exactly (slow but correct).
   */
  async withIndexSuspended<T>(collection: string, work: () => Promise<T>): Promise<T> {
    const table = pgvectorTableName(collection);
    await this.run("suspend index", async () => {
      await this.requireDimension(collection);
      await this.sql.query(`DROP INDEX IF EXISTS ${table}_hnsw`);
    });
    try {
      return await work();
    } finally {
      await this.run("rebuild index", () => this.createHnswIndex(table));
    }
  }

  async countChunks(collection: string): Promise<number> {
    return this.run("count chunks", async () => {
      await this.requireDimension(collection);
      const result = await this.sql.query<{ count: number | string }>(`SELECT count(*) AS count FROM ${pgvectorTableName(collection)}`);
      return Number(result.rows[0]?.count ?? 0);
    });
  }

  private async createHnswIndex(table: string): Promise<void> {
    const m = this.options.m ?? 16;
    const efConstruction = this.options.efConstruction ?? 128;
    const create = `CREATE INDEX IF NOT EXISTS ${table}_hnsw ON ${table} USING hnsw (embedding vector_cosine_ops) WITH (m = ${m}, ef_construction = ${efConstruction})`;
    if (!this.sql.transaction) {
      await this.sql.query(create);
      return;
    }
    // The build is much faster when the graph fits in maintenance_work_mem (64 MB by default).
    await this.sql.transaction(async (tx) => {
      await tx.query(`SET LOCAL maintenance_work_mem = '${this.options.indexBuildMemory ?? INDEX_BUILD_MEMORY}'`);
      await tx.query(create);
    });
  }

  async dropCollection(collection: string): Promise<void> {
    await this.run("drop collection", async () => {
      this.dimensions.delete(collection);
      await this.sql.query(`DROP TABLE IF EXISTS ${pgvectorTableName(collection)}`);
      await this.sql.query(`DELETE FROM ${REGISTRY} WHERE name = $1`, [collection]);
    });
  }

  async upsert(collection: string, chunks: readonly StoredChunk[]): Promise<void> {
    if (chunks.length === 0) return;
    await this.run("upsert", async () => {
      const dimension = await this.requireDimension(collection);
      for (const chunk of chunks) checkVectorDimension(this.id, collection, dimension, chunk.vector, `Chunk "${chunk.id}"`);
      const batchSize = this.options.batchSize ?? 500;
      for (let start = 0; start < chunks.length; start += batchSize) {
        await this.insertBatch(pgvectorTableName(collection), chunks.slice(start, start + batchSize));
      }
    });
  }

  async deleteDocument(collection: string, documentId: string): Promise<void> {
    await this.run("delete document", async () => {
      await this.requireDimension(collection);
      await this.sql.query(`DELETE FROM ${pgvectorTableName(collection)} WHERE document_id = $1`, [documentId]);
    });
  }

  async search(collection: string, query: VectorSearchQuery, signal?: AbortSignal): Promise<ScoredChunk[]> {
    checkSearchQuery(this.id, query);
    return this.run("search", async () => (await this.searchEach(collection, [query], query, signal))[0] ?? []);
  }

  async searchMany(collection: string, query: MultiVectorSearchQuery, signal?: AbortSignal): Promise<ScoredChunk[]> {
    checkMultiSearchQuery(this.id, query);
    return this.run("search", async () => mergeSearchResults(await this.searchEach(collection, query.queries, query, signal), query.topK));
  }

  async neighbours(collection: string, anchors: readonly ChunkAnchor[], window: number, signal?: AbortSignal): Promise<PositionedChunk[]> {
    checkNeighbourQuery(this.id, anchors, window);
    return this.run("neighbour lookup", async () => {
      signal?.throwIfAborted();
      await this.requireDimension(collection);
      const ranges = neighbourRanges(anchors, window);
      if (ranges.length === 0) return [];
      const result = await this.sql.query<ChunkRow>(
        `SELECT c.id, c.text, c.document_id, c.title, c.chunk_index, c.page
         FROM ${pgvectorTableName(collection)} c
         JOIN unnest($1::text[], $2::integer[], $3::integer[]) AS r(document_id, low, high)
           ON c.document_id = r.document_id AND c.chunk_index BETWEEN r.low AND r.high`,
        [ranges.map((range) => range.documentId), ranges.map((range) => range.from), ranges.map((range) => range.to)],
      );
      return orderNeighbours(anchors, result.rows.map(toPositioned));
    });
  }

  /** One list of hits per query vector, all in one transaction with the same filter and topK. */
  private async searchEach(
    collection: string,
    queries: readonly { vector: number[] }[],
    shared: Pick<VectorSearchQuery, "topK" | "filter">,
    signal: AbortSignal | undefined,
  ): Promise<ScoredChunk[][]> {
    signal?.throwIfAborted();
    const dimension = await this.requireDimension(collection);
    for (const query of queries) checkVectorDimension(this.id, collection, dimension, query.vector, "The query vector");
    const filter = buildPgvectorFilter(shared.filter, 3);
    const statement = `SELECT id, text, document_id, title, chunk_index, page, 1 - (embedding <=> $1::vector) AS score
      FROM ${pgvectorTableName(collection)} ${filter.where}
      ORDER BY embedding <=> $1::vector LIMIT $2`;
    return this.withSearchSettings(filter.where !== "", async (sql) => {
      const lists: ScoredChunk[][] = [];
      for (const query of queries) {
        signal?.throwIfAborted();
        const result = await sql.query<ScoredRow>(statement, [toVectorLiteral(query.vector), shared.topK, ...filter.params]);
        // relaxed_order (filtered searches) may return rows slightly out of order: sort them exactly.
        lists.push(result.rows.map(toScored).sort((a, b) => b.score - a.score));
      }
      return lists;
    });
  }

  /** HNSW settings apply per transaction (SET LOCAL) so a pooled server connection is left as found. */
  private async withSearchSettings<T>(filtered: boolean, work: (sql: Omit<SqlClient, "transaction">) => Promise<T>): Promise<T> {
    const settings = [`SET LOCAL hnsw.ef_search = ${Math.trunc(this.options.efSearch ?? DEFAULT_EF_SEARCH)}`];
    // pgvector ≥ 0.8: keep scanning the index until enough rows pass the filter.
    if (filtered) settings.push("SET LOCAL hnsw.iterative_scan = relaxed_order");
    if (!this.sql.transaction) return work(this.sql);
    return this.sql.transaction(async (tx) => {
      for (const setting of settings) await tx.query(setting);
      return work(tx);
    });
  }

  private async insertBatch(table: string, chunks: readonly StoredChunk[]): Promise<void> {
    const values: string[] = [];
    const params: unknown[] = [];
    for (const chunk of chunks) {
      const base = params.length;
      values.push(`($${base + 1}, $${base + 2}, $${base + 3}, $${base + 4}, $${base + 5}, $${base + 6}, $${base + 7}::jsonb, $${base + 8}::vector)`);
      params.push(chunk.id, chunk.source.documentId, chunk.source.title, chunk.source.chunkIndex, chunk.source.page ?? null, chunk.text, JSON.stringify(chunk.metadata ?? {}), toVectorLiteral(chunk.vector));
    }
    await this.sql.query(
      `INSERT INTO ${table} (id, document_id, title, chunk_index, page, text, metadata, embedding) VALUES ${values.join(", ")}
       ON CONFLICT (id) DO UPDATE SET document_id = EXCLUDED.document_id, title = EXCLUDED.title, chunk_index = EXCLUDED.chunk_index,
         page = EXCLUDED.page, text = EXCLUDED.text, metadata = EXCLUDED.metadata, embedding = EXCLUDED.embedding`,
      params,
    );
  }

  private prepare(): Promise<void> {
    this.ready ??= (async () => {
      await this.sql.query("CREATE EXTENSION IF NOT EXISTS vector");
      await this.sql.query(`CREATE TABLE IF NOT EXISTS ${REGISTRY} (name text PRIMARY KEY, table_name text NOT NULL, dimension integer NOT NULL)`);
    })().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  private async readDimension(collection: string): Promise<number | undefined> {
    const cached = this.dimensions.get(collection);
    if (cached !== undefined) return cached;
    const result = await this.sql.query<{ dimension: number }>(`SELECT dimension FROM ${REGISTRY} WHERE name = $1`, [collection]);
    const dimension = result.rows[0]?.dimension;
    if (dimension !== undefined) this.dimensions.set(collection, dimension);
    return dimension;
  }

  private async requireDimension(collection: string): Promise<number> {
    const dimension = await this.readDimension(collection);
    if (dimension === undefined) throw collectionNotFound(this.id, collection);
    return dimension;
  }

  private run<T>(operation: string, body: () => Promise<T>): Promise<T> {
    return guardedPgvector(() => this.prepare(), operation, body);
  }
}

/** Runs `body` once `prepare` has made the tables ready, reporting any database failure as a store error. */
export async function guardedPgvector<T>(prepare: () => Promise<void>, operation: string, body: () => Promise<T>): Promise<T> {
  try {
    await prepare();
    return await body();
  } catch (error) {
    throw pgvectorFailure(error, operation);
  }
}

/** Database failures as store errors: a lost connection is VECTOR_STORE_UNAVAILABLE, anything else VECTOR_STORE_ERROR. */
function pgvectorFailure(error: unknown, operation: string): Error {
  if (error instanceof VectorStoreError || (error instanceof Error && error.name === "AbortError")) return error;
  const message = error instanceof Error ? error.message : String(error);
  const unavailable = /ECONNREFUSED|ECONNRESET|terminat|closed|Connection/i.test(message);
  return new VectorStoreError(unavailable ? "VECTOR_STORE_UNAVAILABLE" : "VECTOR_STORE_ERROR", `pgvector failed during ${operation}: ${message}`, { store: "pgvector", cause: error });
}
