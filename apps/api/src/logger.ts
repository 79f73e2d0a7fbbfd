import { pino, type DestinationStream, type Logger } from "pino";
import type { Env } from "./env.js";

export type { Logger };

/**
 * Structured JSON logs, one line each, on stdout (the API) or another stream (the command line keeps
 * stdout for its output); every request's lines carry its `requestId`.
 */
export function createLogger(env: Pick<Env, "LOG_LEVEL">, destination?: DestinationStream): Logger {
  const options = {
    level: env.LOG_LEVEL,
    base: { service: "weft-api" },
    redact: { paths: ["req.headers.authorization", "authorization", "key"], censor: "[redacted]" },
  };
  return destination ? pino(options, destination) : pino(options);
}
