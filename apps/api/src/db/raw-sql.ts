import type { PGlite, Transaction } from "@electric-sql/pglite";
import type pg from "pg";

export interface RawResult<Row> {
  rows: Row[];
  /** Rows changed by INSERT/UPDATE/DELETE; 0 for other statements. */
  affectedRows: number;
}

export interface QueryOptions {
  /**
   * Server mode: prepare the statement under this name on each connection that runs it and reuse it
   * there (no parsing, and PostgreSQL may switch to a cached generic plan after a few executions). A
   * name must always stand for the same SQL text. PGlite ignores it.
   */
  prepareAs?: string;
}

export interface RawQueryable {
  /** One statement with `$1`-style parameters. */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<RawResult<Row>>;
  /** Several statements separated by `;`, no parameters (DDL scripts). */
  exec(sql: string): Promise<void>;
}

/**
 * Plain SQL on the same database the Prisma Client uses, for what Prisma cannot express
 * (pgvector columns and HNSW indexes, per-knowledge-base tables). In embedded mode it is the PGlite
 * instance itself; in server mode a `pg` pool shared with the Prisma adapter.
 */
export interface RawSql extends RawQueryable {
  /** Runs `work` in one transaction on one connection; it commits when `work` resolves, else rolls back. */
  transaction<T>(work: (tx: RawQueryable) => Promise<T>): Promise<T>;
}

function pgliteQueryable(client: PGlite | Transaction): RawQueryable {
  return {
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      const result = await client.query<Row>(sql, [...params]);
      return { rows: result.rows, affectedRows: result.affectedRows ?? 0 };
    },
    async exec(sql: string) {
      await client.exec(sql);
    },
  };
}

export function pgliteRawSql(client: PGlite): RawSql {
  return {
    ...pgliteQueryable(client),
    transaction: (work) => client.transaction((tx) => work(pgliteQueryable(tx))),
  };
}

function pgQueryable(client: pg.Pool | pg.PoolClient): RawQueryable {
  return {
    async query<Row>(sql: string, params: readonly unknown[] = [], options: QueryOptions = {}) {
      const values = [...params];
      const result = await (options.prepareAs ? client.query({ name: options.prepareAs, text: sql, values }) : client.query(sql, values));
      return { rows: result.rows as Row[], affectedRows: result.command === "SELECT" ? 0 : (result.rowCount ?? 0) };
    },
    async exec(sql: string) {
      await client.query(sql);
    },
  };
}

export function pgRawSql(pool: pg.Pool): RawSql {
  return {
    ...pgQueryable(pool),
    async transaction(work) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query("BEGIN");
        const result = await work(pgQueryable(client));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        // The caller needs the original error; a connection that cannot roll back is destroyed instead.
        await client.query("ROLLBACK").catch((rollbackError: Error) => (broken = rollbackError));
        throw error;
      } finally {
        client.release(broken);
      }
    },
  };
}
