import { PGlite } from "@electric-sql/pglite";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory, SqlQueryable } from "@prisma/driver-adapter-utils";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { plannedStatementsOf, type PlannedStatements } from "./planned-statements.js";

interface ErrorConverting {
  onError(error: unknown): never;
}

/**
 * `pglite-prisma-adapter` 0.7.2 fires `executeScript` without awaiting it, so a failing migration
 * script would be recorded as applied and its error lost. This wraps the adapter so the script is
 * awaited and its error converted the way the adapter converts query errors.
 */
function awaitingScripts(adapter: SqlDriverAdapter, client: PGlite): SqlDriverAdapter {
  const executeScript = async (script: string): Promise<void> => {
    try {
      await client.exec(script);
    } catch (error) {
      (adapter as unknown as ErrorConverting).onError(error);
    }
  };
  return Object.assign(Object.create(adapter) as SqlDriverAdapter, { executeScript });
}

/** Sends the statements marked `planned(...)` through the session's prepared statements, in and out of transactions. */
function preparingMarked(adapter: SqlDriverAdapter, planned: PlannedStatements): SqlDriverAdapter {
  const preparing = <Q extends SqlQueryable>(queryable: Q): Q =>
    Object.assign(Object.create(queryable) as Q, {
      queryRaw: (query: Parameters<Q["queryRaw"]>[0]) => planned.run(queryable, query, (sent) => queryable.queryRaw(sent)),
      executeRaw: (query: Parameters<Q["executeRaw"]>[0]) => planned.run(queryable, query, (sent) => queryable.executeRaw(sent)),
    });
  return Object.assign(preparing(adapter), {
    startTransaction: async (isolationLevel?: Parameters<SqlDriverAdapter["startTransaction"]>[0]) => preparing(await adapter.startTransaction(isolationLevel)),
  });
}

/**
 * Driver adapter factory for PGlite that the Prisma Client and the schema engine can both use. Its
 * connections send statements marked `planned(...)` through the session's prepared statements.
 * The shadow database (used by `diff` from migrations) is a throw-away in-memory PGlite that is
 * closed when the engine disposes it.
 */
export class PGliteAdapterFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = "postgres";
  readonly adapterName = "pglite-prisma-adapter";
  private readonly inner: PrismaPGlite;

  constructor(private readonly client: PGlite) {
    this.inner = new PrismaPGlite(client);
  }

  async connect(): Promise<SqlDriverAdapter> {
    return awaitingScripts(preparingMarked(await this.inner.connect(), plannedStatementsOf(this.client)), this.client);
  }

  connectToShadowDb(): Promise<SqlDriverAdapter> {
    return connectPGliteShadow();
  }
}

/** A throw-away in-memory PGlite as the schema engine's shadow database, closed on dispose. */
export async function connectPGliteShadow(): Promise<SqlDriverAdapter> {
  const shadow = new PGlite();
  const adapter = awaitingScripts(await new PrismaPGlite(shadow).connect(), shadow);
  const dispose = async (): Promise<void> => {
    await shadow.close();
  };
  return Object.assign(adapter, { dispose });
}
