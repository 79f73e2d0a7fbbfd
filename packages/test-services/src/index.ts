/**
 * Real services owned by the test that starts them: a PostgreSQL server and a Redis on free loopback
 * ports, each in its own temp directory and removed when stopped (or when the test process exits).
 * Used by the API's tests, the browser tests (apps/web/e2e) and the benchmarks.
 */
export { cleanUpOnExit } from "./clean-up-on-exit.js";
export { freePort } from "./free-port.js";
export { findPostgresBinDir, PostgresServerError, startPostgresServer, type PostgresServer, type StartPostgresOptions } from "./postgres-server.js";
export { RedisServerError, startRedisServer, type RedisServer } from "./redis-server.js";
