import type { RequestHandler } from "express";
import type { Database } from "../db/db.js";
import type { RunQueue } from "../queue/run-queue.js";

const PING_TIMEOUT_MS = 2_000;

/** GET /healthz: 200 when the database answers, 503 otherwise. Public, no key needed. */
export function healthHandler(db: Database, queue: RunQueue): RequestHandler {
  return async (_req, res) => {
    const started = performance.now();
    let database: "ok" | "unavailable" = "ok";
    let error: string | undefined;
    try {
      await withTimeout(db.prisma.$queryRaw`SELECT 1`, PING_TIMEOUT_MS);
    } catch (cause) {
      database = "unavailable";
      error = cause instanceof Error ? cause.message.split("\n")[0] : String(cause);
    }
    const body = {
      status: database === "ok" ? "ok" : "unavailable",
      database: { status: database, mode: db.mode, latencyMs: Math.round((performance.now() - started) * 10) / 10, error },
      runs: queue.stats(),
    };
    res.status(database === "ok" ? 200 : 503).json(body);
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
