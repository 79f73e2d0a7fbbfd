import { pino, type Logger } from "pino";
import type { Env } from "./env.js";

export type { Logger };

/** Structured JSON logs on stdout; every request's lines carry its `requestId`. */
export function createLogger(env: Pick<Env, "LOG_LEVEL">): Logger {
  return pino({
    level: env.LOG_LEVEL,
    base: { service: "weft-api" },
    redact: { paths: ["req.headers.authorization", "authorization", "key"], censor: "[redacted]" },
  });
}
