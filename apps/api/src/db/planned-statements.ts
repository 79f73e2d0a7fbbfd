import type { PGlite } from "@electric-sql/pglite";
import type { SqlQuery, SqlQueryable } from "@prisma/driver-adapter-utils";
import pg from "pg";
import { sqlLiteral } from "./sql-literal.js";

/**
 * Marks a hot statement whose plan the embedded database keeps (see PlannedStatements and planned.ts).
 * On PostgreSQL the mark is an SQL comment and changes nothing.
 */
export const PLANNED_MARK = "/* weft:planned */";

/** At most this many statements are kept prepared per session; later ones run as they come. */
export const MAX_PLANNED_STATEMENTS = 64;

/**
 * The embedded database's prepared statements. PGlite has one session and plans every statement it is
 * sent through the extended protocol afresh: for the graph-edit statements (data-modifying CTEs over a
 * slice of the graph) parsing and planning cost more than executing. A statement marked with
 * `planned(...)` is prepared once per session under a name (`PREPARE weft_planned_<n> AS …`) and then
 * run as `EXECUTE weft_planned_<n>(…)` with its arguments as quoted literals (sqlLiteral), so
 * PostgreSQL reuses its plan (a generic plan once it proves as cheap as the custom ones). Prepared
 * statements outlive transactions, rolled back or not, and re-plan themselves after a schema change.
 * Raw statements given a name (RawQueryable's `prepareAs`, e.g. the event batches) go the same way
 * under that name.
 *
 * Only plain scalar arguments (text, numbers, booleans, null) are inlined; a statement with any other
 * argument runs as it came, as does every marked statement after the first MAX_PLANNED_STATEMENTS.
 */
export class PlannedStatements {
  readonly #names = new Map<string, string>();
  /** Prepared (or being prepared) statements by name: calls that meet the same new name wait for one PREPARE. */
  readonly #named = new Map<string, Promise<unknown>>();

  /** Runs `query` on `queryable` (the session or its transaction), prepared when it is marked. */
  async run<T>(queryable: SqlQueryable, query: SqlQuery, send: (query: SqlQuery) => Promise<T>): Promise<T> {
    if (!query.sql.startsWith(PLANNED_MARK)) return send(query);
    let name = this.#names.get(query.sql);
    if (!name) {
      if (this.#names.size >= MAX_PLANNED_STATEMENTS) return send(query);
      name = `weft_planned_${this.#names.size + 1}`;
      this.#names.set(query.sql, name);
    }
    const prepare = (statement: string) => queryable.executeRaw({ sql: statement, args: [], argTypes: [] });
    const execute = await this.executing(name, query.sql, query.args, prepare, query.argTypes);
    return send(execute ? { sql: execute, args: [], argTypes: [] } : query);
  }

  /**
   * The EXECUTE that runs `sql` with `params` as the statement prepared under `name` (preparing it
   * through `prepare` the first time this session sees the name), or null when a parameter is not a
   * plain scalar. A name must always stand for the same text.
   */
  async executing(
    name: string,
    sql: string,
    params: readonly unknown[],
    prepare: (statement: string) => Promise<unknown>,
    types?: SqlQuery["argTypes"],
  ): Promise<string | null> {
    // PostgreSQL cuts identifiers at 63 bytes: two long names could become one.
    if (Buffer.byteLength(name) > 63) throw new Error(`a statement name has at most 63 bytes: ${name}`);
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
