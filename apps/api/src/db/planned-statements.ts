import type { PGlite } from "@electric-sql/pglite";
import type { SqlQuery, SqlQueryable } from "@prisma/driver-adapter-utils";
import pg from "pg";
import { sqlLiteral } from "./sql-literal.js";

/**
 * Marks a hot statement (planned.ts, for Prisma's raw queries and the raw SQL handle alike) that the
 * database keeps prepared: parsed and planned once, then only executed.
 */
export const PLANNED_MARK = "/* weft:planned */";

/**
 * At most this many statement texts are prepared per database (per process); marked statements after
 * them run as they come. A connection pooler in front of PostgreSQL must allow as many per connection
 * (docs/deployment.md).
 */
export const MAX_PLANNED_STATEMENTS = 256;

/**
 * The names of the marked statements one database handle runs: the first MAX_PLANNED_STATEMENTS
 * distinct texts get one each (`weft_planned_<n>`), for as long as the handle lives; others get none.
 * One per PGlite session (PlannedStatements) and one per PostgreSQL pool (db.ts), where Prisma's driver
 * adapter (its statementNameGenerator) and the raw SQL handle both name statements through it: on
 * PostgreSQL a named statement is prepared on each connection the first time it runs there, and
 * executed by name after that.
 */
export class PlannedNames {
  readonly #names = new Map<string, string>();

  /** The name `sql` runs under: null when it is not marked, or is new past the limit. */
  nameOf(sql: string): string | null {
    if (!sql.startsWith(PLANNED_MARK)) return null;
    let name = this.#names.get(sql);
    if (!name) {
      if (this.#names.size >= MAX_PLANNED_STATEMENTS) return null;
      name = `weft_planned_${this.#names.size + 1}`;
      this.#names.set(sql, name);
    }
    return name;
  }

  get size(): number {
    return this.#names.size;
  }
}

/**
 * The embedded database's prepared statements. PGlite has one session and plans every statement it is
 * sent through the extended protocol afresh: for the graph-edit statements (data-modifying CTEs over a
 * slice of the graph) parsing and planning cost more than executing. A statement marked with
 * `planned(...)` — Prisma's or the raw SQL handle's — is prepared once per session under its name
 * (`PREPARE weft_planned_<n> AS …`, PlannedNames) and then run as `EXECUTE weft_planned_<n>(…)` with its
 * arguments as quoted literals (sqlLiteral), so PostgreSQL reuses its plan (a generic plan once it
 * proves as cheap as the custom ones). Prepared statements outlive transactions, rolled back or not,
 * and re-plan themselves after a schema change.
 *
 * Only plain scalar arguments (text, numbers, booleans, null) are inlined; a statement with any other
 * argument runs as it came, as does every marked statement past the limit.
 */
export class PlannedStatements {
  readonly #names = new PlannedNames();
  /** Prepared (or being prepared) statements by name: calls that meet the same new name wait for one PREPARE. */
  readonly #named = new Map<string, Promise<unknown>>();

  /** Runs Prisma's `query` on `queryable` (the session or its transaction), prepared when it is marked. */
  async run<T>(queryable: SqlQueryable, query: SqlQuery, send: (query: SqlQuery) => Promise<T>): Promise<T> {
    const prepare = (statement: string) => queryable.executeRaw({ sql: statement, args: [], argTypes: [] });
    const execute = await this.executing(query.sql, query.args, prepare, query.argTypes);
    return send(execute ? { sql: execute, args: [], argTypes: [] } : query);
  }

  /**
   * The EXECUTE that runs the marked statement `sql` with `params` prepared (preparing it through
   * `prepare` the first time this session sees it), or null: not marked, past the limit, or a parameter
   * is not a plain scalar.
   */
  async executing(sql: string, params: readonly unknown[], prepare: (statement: string) => Promise<unknown>, types?: SqlQuery["argTypes"]): Promise<string | null> {
    const name = this.#names.nameOf(sql);
    if (!name) return null;
    const literals = inlinedArguments(params, types);
    if (!literals) return null;
    const identifier = pg.escapeIdentifier(name);
    for (;;) {
      const preparing = this.#named.get(name);
      if (preparing) {
        // Another call's PREPARE; if it failed (its transaction was failing, say), this call prepares.
        if (await preparing.then(() => true, () => false)) break;
        continue;
      }
      const mine = prepare(`PREPARE ${identifier} AS ${sql}`);
      this.#named.set(name, mine);
      try {
        await mine;
      } catch (error) {
        this.#named.delete(name);
        throw error;
      }
      break;
    }
    return executeSql(identifier, literals);
  }

  /** How many statements this session holds prepared. */
  get size(): number {
    return this.#named.size;
  }
}

function executeSql(name: string, literals: readonly string[]): string {
  return `EXECUTE ${name}${literals.length > 0 ? `(${literals.join(", ")})` : ""}`;
}

/** The arguments as SQL literals (each typed by the prepared statement's parameter), or null when one is not a plain scalar. */
function inlinedArguments(args: readonly unknown[], types?: SqlQuery["argTypes"]): string[] | null {
  const literals: string[] = [];
  for (const [index, arg] of args.entries()) {
    const type = types?.[index];
    if (arg === null || arg === undefined) {
      literals.push("NULL");
      continue;
    }
    if (type?.arity === "list" || type?.scalarType === "datetime" || type?.scalarType === "bytes") return null;
    if (typeof arg === "string") literals.push(sqlLiteral(arg));
    else if ((typeof arg === "number" && Number.isFinite(arg)) || typeof arg === "bigint" || typeof arg === "boolean") literals.push(`'${String(arg)}'`);
    else return null;
  }
  return literals;
}

/** One per PGlite instance: prepared statements belong to its one session, whichever adapter or handle sent them. */
const plannedBySession = new WeakMap<PGlite, PlannedStatements>();

export function plannedStatementsOf(client: PGlite): PlannedStatements {
  let planned = plannedBySession.get(client);
  if (!planned) plannedBySession.set(client, (planned = new PlannedStatements()));
  return planned;
}
