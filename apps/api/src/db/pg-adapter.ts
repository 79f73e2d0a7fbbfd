import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import type pg from "pg";

interface ErrorConverting {
  onError(error: unknown): never;
}

/**
 * `@prisma/adapter-pg` runs a migration script by splitting it on every `;`, which breaks on a
 * semicolon inside a comment, a string or a function body, and runs the pieces outside any
 * transaction. Here the script goes to the server whole, over the simple query protocol, which runs
 * it as one implicit transaction, as the schema-engine binary does.
 */
export class PgMigrationAdapterFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = "postgres";
  readonly adapterName = "@prisma/adapter-pg";
  private readonly inner: PrismaPg;

  constructor(private readonly pool: pg.Pool) {
    this.inner = new PrismaPg(pool);
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
}
