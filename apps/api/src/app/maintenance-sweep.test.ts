import pino from "pino";
import { describe, expect, it } from "vitest";
import { sweepOnce, type SweepDeps } from "./maintenance-sweep.js";

const logger = pino({ level: "silent" });

function deps(overrides: Partial<SweepDeps> = {}) {
  const deleted: unknown[] = [];
  const runsBefore: Date[] = [];
  const base: SweepDeps = {
    db: { threadMessage: { deleteMany: (async (args: unknown) => (deleted.push(args), { count: 4 })) as never } } as SweepDeps["db"],
    cacheStore: { removeExpired: async () => 7 },
    retention: { maxMessages: 1000, maxAgeSeconds: 86_400 },
    runRetentionDays: 30,
    runs: { deleteFinishedBefore: async (before) => (runsBefore.push(before), 3) },
    logger,
    ...overrides,
  };
  return { base, deleted, runsBefore };
}

describe("the maintenance sweep", () => {
  it("removes expired cache entries, thread messages older than the age limit and runs older than the retention", async () => {
    const { base, deleted, runsBefore } = deps();
    const now = new Date("2026-11-28T12:00:00Z");
    expect(await sweepOnce(base, now)).toEqual({ cacheEntries: 7, threadMessages: 4, runs: 3 });
    expect(deleted).toEqual([{ where: { createdAt: { lt: new Date("2026-11-27T12:00:00Z") } } }]);
    expect(runsBefore).toEqual([new Date("2026-10-29T12:00:00Z")]);
  });

  it("keeps thread messages and runs without limits, and goes on when one part fails", async () => {
    const { base, deleted, runsBefore } = deps({
      retention: { maxMessages: null, maxAgeSeconds: null },
      runRetentionDays: null,
      cacheStore: { removeExpired: async () => Promise.reject(new Error("weaviate is down")) },
    });
    expect(await sweepOnce(base)).toEqual({ cacheEntries: 0, threadMessages: 0, runs: 0 });
    expect([deleted, runsBefore]).toEqual([[], []]);
    const failingRuns = deps({ runs: { deleteFinishedBefore: async () => Promise.reject(new Error("database away")) } });
    expect(await sweepOnce(failingRuns.base)).toEqual({ cacheEntries: 7, threadMessages: 4, runs: 0 });
  });

  it("vacuums the embedded database after its deletions, goes on when that fails, and not once stopped", async () => {
    const order: string[] = [];
    const vacuumed = deps({
      runs: { deleteFinishedBefore: async () => (order.push("runs"), 0) },
      sweepFirings: async () => (order.push("firings"), 0),
      vacuum: async () => (order.push("vacuum"), 20),
    });
    await sweepOnce(vacuumed.base);
    expect(order).toEqual(["runs", "firings", "vacuum"]);
    const failing = deps({ vacuum: async () => Promise.reject(new Error("disk full")) });
    expect(await sweepOnce(failing.base)).toEqual({ cacheEntries: 7, threadMessages: 4, runs: 3 });
    order.length = 0;
    await sweepOnce(vacuumed.base, new Date(), () => true);
    expect(order).not.toContain("vacuum");
  });
});
