import type { SqlQuery, SqlQueryable } from "@prisma/driver-adapter-utils";
import pg from "pg";
import { Prisma } from "../generated/prisma/client.js";

/**
 * Marks a hot statement whose plan the embedded database keeps (see PlannedStatements). On PostgreSQL
 * the mark is an SQL comment and changes nothing.
 */
export const PLANNED_MARK = "/* weft:planned */";

/** `sql` marked as a statement the embedded database prepares once per session. */
export function planned(sql: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`${Prisma.raw(PLANNED_MARK)} ${sql}`;
}

/** At most this many statements are kept prepared per session; later ones run as they come. */
export const MAX_PLANNED_STATEMENTS = 64;

/**
 * The embedded database's prepared statements. PGlite has one session and plans every statement it is
 * sent through the extended protocol afresh: for the graph-edit statements (data-modifying CTEs over a
 * slice of the graph) parsing and planning cost more than executing. A statement marked with
 * `planned(...)` is prepared once per session under a name (`PREPARE weft_planned_<n> AS …`) and then
 * run as `EXECUTE weft_planned_<n>(…)` with its arguments as quoted literals (pg's escapeLiteral), so
 * PostgreSQL reuses its plan (a generic plan once it proves as cheap as the custom ones). Prepared
 * statements outlive transactions, rolled back or not, and re-plan themselves after a schema change.
 *
 * Only plain scalar arguments (text, numbers, booleans, null) are inlined; a marked statement with any
 * other argument runs as it came, as does every statement after the first MAX_PLANNED_STATEMENTS.
 */
export class PlannedStatements {
  readonly #names = new Map<string, string>();

  /** Runs `query` on `queryable` (the session or its transaction), prepared when it is marked. */
  async run<T>(queryable: SqlQueryable, query: SqlQuery, send: (query: SqlQuery) => Promise<T>): Promise<T> {
    if (!query.sql.startsWith(PLANNED_MARK)) return send(query);
    const literals = inlinedArguments(query);
    if (!literals) return send(query);
    let name = this.#names.get(query.sql);
    if (!name) {
      if (this.#names.size >= MAX_PLANNED_STATEMENTS) return send(query);
      name = `weft_planned_${this.#names.size + 1}`;
      await queryable.executeRaw({ sql: `PREPARE ${name} AS ${query.sql}`, args: [], argTypes: [] });
      this.#names.set(query.sql, name);
    }
    return send({ sql: `EXECUTE ${name}${literals.length > 0 ? `(${literals.join(", ")})` : ""}`, args: [], argTypes: [] });
  }

  /** How many statements this session holds prepared. */
  get size(): number {
    return this.#names.size;
  }
}

/** The arguments as SQL literals (each typed by the prepared statement's parameter), or null when one is not a plain scalar. */
function inlinedArguments(query: SqlQuery): string[] | null {
  const literals: string[] = [];
  for (const [index, arg] of query.args.entries()) {
    const type = query.argTypes[index];
    if (arg === null || arg === undefined) {
      literals.push("NULL");
      continue;
    }
    if (type?.arity === "list" || type?.scalarType === "datetime" || type?.scalarType === "bytes") return null;
    if (typeof arg === "string") literals.push(pg.escapeLiteral(arg));
    else if ((typeof arg === "number" && Number.isFinite(arg)) || typeof arg === "bigint" || typeof arg === "boolean") literals.push(`'${String(arg)}'`);
    else return null;
  }
  return literals;
}
