import type { SemanticCacheStore, ThreadRetention } from "@weft/engine";
import type { PrismaClient } from "../generated/prisma/client.js";
import type { Logger } from "../logger.js";

export interface SweepDeps {
  db: { threadMessage: Pick<PrismaClient["threadMessage"], "deleteMany"> };
  cacheStore: Pick<SemanticCacheStore, "removeExpired"> | null;
  retention: ThreadRetention;
  logger: Logger;
}

/**
 * One pass of housekeeping: expired semantic-cache entries deleted for good (lookups already skip
 * them), and thread messages past the age limit (reads already skip them; a thread's next turn would
 * delete its own). Returns what it removed. A failure of one part is logged and leaves the other.
 */
export async function sweepOnce(deps: SweepDeps, now = new Date()): Promise<{ cacheEntries: number; threadMessages: number }> {
  let cacheEntries = 0;
  let threadMessages = 0;
  try {
    cacheEntries = deps.cacheStore ? await deps.cacheStore.removeExpired() : 0;
  } catch (error) {
    deps.logger.warn({ err: error }, "removing expired semantic-cache entries failed; retrying at the next sweep");
  }
  try {
    if (deps.retention.maxAgeSeconds !== null) {
      const before = new Date(now.getTime() - deps.retention.maxAgeSeconds * 1000);
      threadMessages = (await deps.db.threadMessage.deleteMany({ where: { createdAt: { lt: before } } })).count;
    }
  } catch (error) {
    deps.logger.warn({ err: error }, "removing thread messages past the age limit failed; retrying at the next sweep");
  }
  if (cacheEntries + threadMessages > 0) deps.logger.info({ cacheEntries, threadMessages }, "swept expired cache entries and thread messages");
  return { cacheEntries, threadMessages };
}

/** Sweeps every `intervalSeconds` (0: never), the first time one interval after start; the timer does not keep the process alive. */
export function startMaintenanceSweep(deps: SweepDeps, intervalSeconds: number): { stop(): void } | null {
  if (intervalSeconds <= 0) return null;
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    running ??= sweepOnce(deps).finally(() => (running = null));
  }, intervalSeconds * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
