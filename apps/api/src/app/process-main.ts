import type { LlmProvider } from "@weft/engine";
import { createApp } from "./create-app.js";
import { roleFromArgs, type ProcessRole } from "./process-role.js";
import { startupFailure } from "./startup-failure.js";
import { EnvError, loadEnv } from "../env.js";
import { createLogger } from "../logger.js";

/**
 * A whole API or worker process (`main.ts`): the configuration from the environment and `--role` from
 * the arguments, every line written as JSON on stdout, a refusal to start included (an expected one —
 * bad configuration, database not migrated, unreachable, locked — is one line with its code and no
 * stack), and SIGINT/SIGTERM closing everything in order. `providers`: LLM providers beside the
 * configured ones (a test's worker processes add theirs; see testing/poison-worker-main.ts).
 */
export async function runProcess(providers: readonly LlmProvider[] = []): Promise<void> {
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
    app = await createApp(env, { logger, role, providers });
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

/** Where runProcess failed unexpectedly: one fatal line, exit 1. */
export function exitOnUnexpected(error: unknown): never {
  createLogger({ LOG_LEVEL: "info" }).fatal({ err: error }, "the API stopped on an unexpected error");
  process.exit(1);
}
