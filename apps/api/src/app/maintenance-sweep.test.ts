import pino from "pino";
import { describe, expect, it } from "vitest";
import { sweepOnce, type SweepDeps } from "./maintenance-sweep.js";

const logger = pino({ level: "silent" });

function deps(overrides: Partial<SweepDeps> = {}) {
  const deleted: unknown[] = [];
  const base: SweepDeps = {
    db: { threadMessage: { deleteMany: (async (args: unknown) => (deleted.push(args), { count: 4 })) as never } } as SweepDeps["db"],
    cacheStore: { removeExpired: async () => 7 },
    retention: { maxMessages: 1000, maxAgeSeconds: 86_400 },
    logger,
    ...overrides,
  };
  return { base, deleted };
}

describe("the maintenance sweep", () => {
  it("removes expired cache entries and thread messages older than the age limit", async () => {
    const { base, deleted } = deps();
    const now = new Date("2026-11-28T12:00:00Z");
    expect(await sweepOnce(base, now)).toEqual({ cacheEntries: 7, threadMessages: 4 });
    expect(deleted).toEqual([{ where: { createdAt: { lt: new Date("2026-11-27T12:00:00Z") } } }]);
  });

  it("leaves thread messages alone without an age limit, and goes on when the cache store fails", async () => {
    const { base, deleted } = deps({
      retention: { maxMessages: null, maxAgeSeconds: null },
      cacheStore: { removeExpired: async () => Promise.reject(new Error("weaviate is down")) },
    });
    expect(await sweepOnce(base)).toEqual({ cacheEntries: 0, threadMessages: 0 });
    expect(deleted).toEqual([]);
  });
});
