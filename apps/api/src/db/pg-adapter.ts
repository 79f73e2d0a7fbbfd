import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import pg from "pg";

interface ErrorConverting {
  onError(error: unknown): never;
}

/**
 * Driver adapter factory for the schema engine on a PostgreSQL server. Two differences from
 * `@prisma/adapter-pg` as it is:
 *
 * - One connection. The engine serialises migrations with a session-level advisory lock; on a pool
 *   the lock, the scripts and the unlock land on different connections, the lock is never released
 *   and a second migrator times out.
 * - Scripts go to the server whole, over the simple query protocol, which runs them as one implicit
 *   transaction, as the schema-engine binary does. adapter-pg splits them on every `;`, which breaks
 *   on a semicolon inside a comment, a string or a function body.
 *
 * Call `dispose()` when the engine is done.
 */
export class PgMigrationAdapterFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = "postgres";
  readonly adapterName = "@prisma/adapter-pg";
  private readonly pool: pg.Pool;
  private readonly inner: PrismaPg;

  constructor(connectionString: string) {
    this.pool = new pg.Pool({ connectionString, max: 1 });
    // A dropped idle connection must not crash the process; the next query reports the problem.
    this.pool.on("error", () => undefined);
    this.inner = new PrismaPg(this.pool);
  }

  async connect(): Promise<SqlDriverAdapter> {
    const adapter = await this.inner.connect();
    const executeScript = async (script: string): Promise<void> => {
      try {
        await this.pool.query(script);
      } catch (error) {
        (adapter as unknown as ErrorConverting).onError(error);
      }
    };
    return Object.assign(Object.create(adapter) as SqlDriverAdapter, { executeScript });
  }

  connectToShadowDb(): Promise<SqlDriverAdapter> {
    return this.inner.connectToShadowDb();
  }

  async dispose(): Promise<void> {
    await this.pool.end();
  }
}
