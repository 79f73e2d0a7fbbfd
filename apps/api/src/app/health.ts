import type { VectorStore } from "@weft/engine";
import type { RequestHandler } from "express";
import type { Database } from "../db/db.js";
import type { RunQueue } from "../queue/run-queue.js";

const PING_TIMEOUT_MS = 2_000;

interface Check {
  status: "ok" | "unavailable";
  latencyMs: number;
  error?: string;
}

/** GET /healthz (liveness): 200 when the database answers, 503 otherwise. Public, no key needed. */
export function healthHandler(db: Database, queue: RunQueue): RequestHandler {
  return async (_req, res) => {
    const database = await checkDatabase(db);
    res.status(database.status === "ok" ? 200 : 503).json({
      status: database.status,
      database: { ...database, mode: db.mode },
      runs: queue.stats(),
    });
  };
}

/**
 * GET /readyz (readiness): the database answers, and so does the vector store new knowledge bases go to
 * (Weaviate: its REST endpoint and its gRPC port; pgvector lives in the database). 503 with each failing
 * part's own error otherwise, so a load balancer stops sending traffic and the operator reads why.
 */
export function readinessHandler(db: Database, store: VectorStore, queue: RunQueue): RequestHandler {
  return async (_req, res) => {
    const [database, vectorStore] = await Promise.all([checkDatabase(db), checkStore(store)]);
    const ready = database.status === "ok" && vectorStore.status === "ok";
    res.status(ready ? 200 : 503).json({
      status: ready ? "ready" : "unavailable",
      database: { ...database, mode: db.mode },
      vectorStore: { ...vectorStore, store: store.id },
      runs: queue.stats(),
    });
  };
}

function checkDatabase(db: Database): Promise<Check> {
  return timed(() => db.prisma.$queryRaw`SELECT 1`);
}

/** Stores that can tell whether they answer (Weaviate); pgvector answers when the database does. */
function hasReadiness(store: VectorStore): store is VectorStore & { ready(timeoutMs?: number): Promise<void> } {
  return typeof (store as { ready?: unknown }).ready === "function";
}

function checkStore(store: VectorStore): Promise<Check> {
  return hasReadiness(store) ? timed(() => store.ready(PING_TIMEOUT_MS)) : Promise.resolve({ status: "ok", latencyMs: 0 });
}

async function timed(probe: () => Promise<unknown>): Promise<Check> {
  const started = performance.now();
  let error: string | undefined;
  try {
    await withTimeout(probe(), PING_TIMEOUT_MS);
  } catch (cause) {
    error = errorText(cause);
  }
  const latencyMs = Math.round((performance.now() - started) * 10) / 10;
  return error === undefined ? { status: "ok", latencyMs } : { status: "unavailable", latencyMs, error };
}

/**
 * The error's own words: Prisma's messages open with blank lines and an "Invalid … invocation:" line,
 * and a driver error often says more in its cause (ECONNREFUSED …) than in its message.
 */
export function errorText(error: unknown): string {
  const lines = (error instanceof Error ? error.message : String(error))
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !/^Invalid `.*` invocation:?$/.test(line));
  const own = lines.join(" ").slice(0, 500);
  const cause = error instanceof Error && error.cause instanceof Error ? errorText(error.cause) : "";
  if (own === "") return cause || (error instanceof Error ? error.name : "unknown error");
  return cause && !own.includes(cause) ? `${own} (${cause})` : own;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
