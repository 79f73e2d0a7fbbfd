import "reflect-metadata";
import { createApp } from "./app/create-app.js";
import { roleFromArgs, type ProcessRole } from "./app/process-role.js";
import { startupFailure } from "./app/startup-failure.js";
import { EnvError, loadEnv } from "./env.js";
import { createLogger } from "./logger.js";

/**
 * `node apps/api/dist/main.js [--role api|worker|all]`: the API on the configuration in the environment
 * (see docs/api.md); separate API and worker processes with REDIS_URL (docs/deployment.md).
 * Every line it writes is JSON on stdout, a refusal to start included: an expected one (bad
 * configuration, database not migrated, unreachable, locked) is one line with its code and no stack.
 */
async function main(): Promise<void> {
  let env;
  let role: ProcessRole;
  try {
    role = roleFromArgs(process.argv.slice(2));
    env = loadEnv();
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    createLogger({ LOG_LEVEL: "info" }).fatal({ code: error.code, issues: error.issues }, "invalid configuration; the API did not start");
    process.exit(2);
  }
  const logger = createLogger(env);
  let app;
  try {
    app = await createApp(env, { logger, role });
  } catch (error) {
    const failure = startupFailure(error);
    logger.fatal(failure.fields, failure.message);
    process.exit(1);
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.logger.info({ signal }, "shutting down");
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.logger.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

main().catch((error: unknown) => {
  createLogger({ LOG_LEVEL: "info" }).fatal({ err: error }, "the API stopped on an unexpected error");
  process.exit(1);
});
