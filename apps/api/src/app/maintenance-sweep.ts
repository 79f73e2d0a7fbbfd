import type { SemanticCacheStore, ThreadRetention } from "@weft/engine";
import type { PrismaClient } from "../generated/prisma/client.js";
import type { Logger } from "../logger.js";

export interface SweepDeps {
  db: { threadMessage: Pick<PrismaClient["threadMessage"], "deleteMany"> };
  cacheStore: Pick<SemanticCacheStore, "removeExpired"> | null;
  retention: ThreadRetention;
  /** WEFT_RUN_RETENTION_DAYS: finished runs older than this are deleted; null keeps them. */
  runRetentionDays: number | null;
  /** The run service's deletion of finished runs (run-deletion.ts), a batch at a time until none is left or the sweep stops. */
  runs: { deleteFinishedBefore(before: Date, stopped: () => boolean): Promise<number> };
  /** Trigger firings past the idempotency window (modules/trigger's sweepFirings). */
  sweepFirings?: () => Promise<number>;
  /** The embedded database's vacuum (db/embedded-vacuum.ts), after the deletions; absent on a server, whose autovacuum does it. */
  vacuum?: () => Promise<number>;
  logger: Logger;
}

export interface SweepResult {
  cacheEntries: number;
  threadMessages: number;
  runs: number;
}

/**
 * One pass of housekeeping: expired semantic-cache entries deleted for good (lookups already skip
 * them), thread messages past the age limit (reads already skip them; a thread's next turn would
 * delete its own), and finished runs past WEFT_RUN_RETENTION_DAYS with everything they stored; then, on
 * the embedded database, a vacuum. Returns what it removed. A failure of one part is logged and leaves
 * the others.
 */
export async function sweepOnce(deps: SweepDeps, now = new Date(), stopped: () => boolean = () => false): Promise<SweepResult> {
  const cacheEntries = await part(deps, "removing expired semantic-cache entries", async () => (deps.cacheStore ? deps.cacheStore.removeExpired() : 0));
  const threadMessages = await part(deps, "removing thread messages past the age limit", async () => {
    if (deps.retention.maxAgeSeconds === null) return 0;
    const before = new Date(now.getTime() - deps.retention.maxAgeSeconds * 1000);
    return (await deps.db.threadMessage.deleteMany({ where: { createdAt: { lt: before } } })).count;
  });
  const runs = await part(deps, "removing runs past WEFT_RUN_RETENTION_DAYS", async () => {
    if (deps.runRetentionDays === null) return 0;
    return deps.runs.deleteFinishedBefore(new Date(now.getTime() - deps.runRetentionDays * 86_400_000), stopped);
  });
  const firings = await part(deps, "removing old trigger firings", async () => (deps.sweepFirings ? deps.sweepFirings() : 0));
  if (deps.vacuum && !stopped()) await part(deps, "vacuuming the embedded database", deps.vacuum);
  if (cacheEntries + threadMessages + runs + firings > 0) deps.logger.info({ cacheEntries, threadMessages, runs, firings }, "swept expired cache entries, thread messages, runs and trigger firings");
  return { cacheEntries, threadMessages, runs };
}

async function part(deps: Pick<SweepDeps, "logger">, what: string, work: () => Promise<number>): Promise<number> {
  try {
    return await work();
  } catch (error) {
    deps.logger.warn({ err: error }, `${what} failed; retrying at the next sweep`);
    return 0;
  }
}

/**
 * Sweeps every `intervalSeconds` (0: never), the first time one interval after start; the timer does not
 * keep the process alive. `stop` ends a pass that is deleting runs after the run it is at, and waits for it.
 */
export function startMaintenanceSweep(deps: SweepDeps, intervalSeconds: number): { stop(): Promise<void> } | null {
  if (intervalSeconds <= 0) return null;
  let running: Promise<unknown> | null = null;
  let stopping = false;
  const timer = setInterval(() => {
    running ??= sweepOnce(deps, new Date(), () => stopping).finally(() => (running = null));
  }, intervalSeconds * 1000);
  timer.unref();
  return {
    stop: async () => {
      stopping = true;
      clearInterval(timer);
      await running;
    },
  };
}
