import { describe, expect, test } from "vitest";
import { summarizeEngineError } from "./migration-failure.js";

const PERMISSION_DENIED = `ERROR: permission denied for schema public
   0: sql_schema_connector::sql_migration_persistence::initialize
           with namespaces=None filters=SchemaFilter { external_tables: [], external_enums: [] }
             at schema-engine/connectors/sql-schema-connector/src/sql_migration_persistence.rs:17
   1: schema_engine_wasm::wasm::engine::ApplyMigrations
             at schema-engine/schema-engine-wasm/src/wasm/engine.rs:167`;

describe("summarizeEngineError", () => {
  test("keeps the database's error and drops the engine's Rust backtrace", () => {
    const summary = summarizeEngineError(`ERROR: relation "x" already exists\n   0: sql_schema_connector::apply_migration\n      at x.rs:1`);
    expect(summary).toBe('ERROR: relation "x" already exists');
  });

  test("a permission error on schema public says how to give the user the schema (PostgreSQL 15 and later)", () => {
    const summary = summarizeEngineError(PERMISSION_DENIED);
    expect(summary.split("\n")).toHaveLength(1);
    expect(summary).toMatch(/^ERROR: permission denied for schema public\. .*PostgreSQL 15.*OWNER weft/);
    expect(summary).not.toMatch(/sql_schema_connector|\.rs:/);
  });
});
