/**
 * The API's public surface for programs that run it in-process (the benchmarks): the server itself, its
 * configuration, and the embedded vector store and semantic cache with the database handle they run on. Everything else is
 * internal; clients use the GraphQL API.
 */
export { createApp, type App } from "./app/create-app.js";
export { loadEnv, type Env } from "./env.js";
export { pgliteRawSql, type RawSql } from "./db/raw-sql.js";
export { openDatabase, type Database } from "./db/db.js";
export { PgvectorVectorStore } from "./retrieval/pgvector-vector-store.js";
export { PgvectorSemanticCache } from "./retrieval/pgvector-semantic-cache.js";
