/**
 * Real services for programs outside this package that measure the API across processes (the
 * benchmarks): a throw-away PostgreSQL with a migrated database, a Redis, and API or worker processes.
 * Exported only under the `weft-source` condition (package.json): they run from the sources, as tests do.
 */
export { acquirePostgres, openTestDatabase, releasePostgres, type TestDatabase } from "./database.js";
export { startRedisServer, type RedisServer } from "@weft/test-services";
export { startApiProcess, type ApiProcess } from "./api-process.js";
export { arrows } from "./workflows.js";
