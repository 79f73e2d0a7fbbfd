// Configuration for the Prisma CLI when run from apps/api. The schema and migrations live at the
// repository root. The CLI's schema engine is scripts/prisma-schema-engine (set by the package
// scripts through PRISMA_SCHEMA_ENGINE_BINARY); see docs/persistence.md.
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "../../prisma/schema.prisma",
  migrations: { path: "../../prisma/migrations" },
  // Only migrate/db commands need it; `prisma generate` must work without a database.
  datasource: { url: process.env.DATABASE_URL ?? "" },
});
