import "reflect-metadata";
import { exitOnUnexpected, runProcess } from "./app/process-main.js";

/**
 * `node apps/api/dist/main.js [--role api|worker|all]`: the API on the configuration in the environment
 * (see docs/api.md); separate API and worker processes with REDIS_URL (docs/deployment.md).
 */
runProcess().catch(exitOnUnexpected);
