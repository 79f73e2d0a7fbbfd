import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../generated/prisma/client.js";
import type { Database } from "../db/db.js";
import type { TestDatabase } from "./database.js";

/**
 * The database behind a Prisma client and a raw handle that report every statement they send (the run
 * path's event batches go straight to the raw handle). `close` disconnects the logging client.
 */
export function loggingDatabase(database: TestDatabase): { database: Database; statements: string[]; close(): Promise<void> } {
  const statements: string[] = [];
  const adapter = database.embedded ? database.embedded.adapterFactory : new PrismaPg({ connectionString: database.location });
  const logging = new PrismaClient({ adapter, log: [{ emit: "event" as const, level: "query" as const }] });
  logging.$on("query", (event) => statements.push(event.query));
  const prisma = logging as unknown as PrismaClient;
  const raw: Database["raw"] = {
    ...database.raw,
    query: (sql, params) => {
      statements.push(sql);
      return database.raw.query(sql, params);
    },
  };
  return { database: { ...database, prisma, raw }, statements, close: () => logging.$disconnect() };
}
