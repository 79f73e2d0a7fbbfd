import type { PGlite, Transaction } from "@electric-sql/pglite";
import type pg from "pg";
import { plannedStatementsOf, type PlannedNames } from "./planned-statements.js";

export interface RawResult<Row> {
  rows: Row[];
  /** Rows changed by INSERT/UPDATE/DELETE; 0 for other statements. */
  affectedRows: number;
}

export interface RawQueryable {
  /**
   * One statement with `$1`-style parameters. A statement marked `planned(...)` (its text starts with
   * PLANNED_MARK) is prepared and reused, as Prisma's marked statements are (planned-statements.ts): no
   * parsing, and PostgreSQL may switch to a cached generic plan after a few executions.
   */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<RawResult<Row>>;
  /** Several statements separated by `;`, no parameters (DDL scripts). */
  exec(sql: string): Promise<void>;
  /**
   * Several statements in one message without parameters (PostgreSQL's simple query protocol: one
   * implicit transaction, so `SET LOCAL` holds for the statements after it); the last one's rows.
   * Values must be written into the text as literals (`sqlLiteral`, sql-literal.ts).
   */
  script<Row = Record<string, unknown>>(sql: string): Promise<{ rows: Row[] }>;
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

/** `session`: the PGlite instance `client` is (or whose transaction it is), for its prepared statements. */
function pgliteQueryable(client: PGlite | Transaction, session: PGlite): RawQueryable {
  return {
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      const execute = await plannedStatementsOf(session).executing(sql, params, (statement) => client.exec(statement));
      // An EXECUTE has no parameters: one simple-protocol message instead of the extended protocol's five.
      const result = execute ? (await client.exec(execute)).at(-1) : await client.query<Row>(sql, [...params]);
      return { rows: (result?.rows ?? []) as Row[], affectedRows: result?.affectedRows ?? 0 };
    },
    async exec(sql: string) {
      await client.exec(sql);
    },
    async script<Row>(sql: string) {
      const results = await client.exec(sql);
      return { rows: (results.at(-1)?.rows ?? []) as Row[] };
    },
  };
}

export function pgliteRawSql(client: PGlite): RawSql {
  return {
    ...pgliteQueryable(client, client),
    transaction: (work) => client.transaction((tx) => work(pgliteQueryable(tx, client))),
  };
}

/** `names`: the pool's statement names, shared with its Prisma driver adapter (db.ts). */
function pgQueryable(client: pg.Pool | pg.PoolClient, names: PlannedNames): RawQueryable {
  return {
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      const values = [...params];
      const name = names.nameOf(sql);
      const result = await (name ? client.query({ name, text: sql, values }) : client.query(sql, values));
      return { rows: result.rows as Row[], affectedRows: result.command === "SELECT" ? 0 : (result.rowCount ?? 0) };
    },
    async exec(sql: string) {
      await client.query(sql);
    },
    async script<Row>(sql: string) {
      // pg answers a message of several statements with one result per statement.
      const result = (await client.query(sql)) as pg.QueryResult | pg.QueryResult[];
      const last = Array.isArray(result) ? result.at(-1) : result;
      return { rows: (last?.rows ?? []) as Row[] };
    },
  };
}

export function pgRawSql(pool: pg.Pool, names: PlannedNames): RawSql {
  return {
    ...pgQueryable(pool, names),
    async transaction(work) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query("BEGIN");
        const result = await work(pgQueryable(client, names));
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
