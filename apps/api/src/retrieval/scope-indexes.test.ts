import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { LARGE_CHANGE, ScopeIndexes, type ScopeSource } from "./scope-indexes.js";

const DIMENSION = 4;
const unit = (i: number) => Float32Array.from({ length: DIMENSION }, (_, d) => (d === i % DIMENSION ? 1 : 0.01 * (i + 1)));

/** A scope's entries as the table would give them: `count` vectors under ids e0, e1, … */
function tableOf(count: number): ScopeSource & { reads: number } {
  const source = {
    reads: 0,
    count: () => Promise.resolve(count),
    vectors: () => {
      source.reads++;
      const page = new Float32Array(count * DIMENSION);
      for (let i = 0; i < count; i++) page.set(unit(i), i * DIMENSION);
      return Promise.resolve({ ids: Array.from({ length: count }, (_, i) => `e${i}`), pages: [page] });
    },
  };
  return source;
}

const entries = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ id: `n${from + i}`, vector: unit(from + i) }));

describe("ScopeIndexes", () => {
  it("builds a scope from its table on first use and finds its entries", async () => {
    const indexes = new ScopeIndexes(tableOf(20), { dimension: DIMENSION, maxEntries: 100 });
    expect(indexes.ready("s")).toBeUndefined();
    const index = await indexes.whenReady("s");
    expect(index?.size).toBe(20);
    expect(index?.nearest(unit(6), 1)[0]).toMatchObject({ id: "e6" });
  });

  it("puts the changes made while a scope was being built into its index", async () => {
    const indexes = new ScopeIndexes(tableOf(10), { dimension: DIMENSION, maxEntries: 100 });
    indexes.ready("s");
    indexes.upsert("s", entries(0, 3));
    indexes.remove("s", ["e2"]);
    const index = await indexes.whenReady("s");
    await nextTurn();
    expect(index?.size).toBe(12);
    expect(index?.nearest(unit(2), 3).map((n) => n.id)).not.toContain("e2");
  });

  it("applies a large change a few entries per turn of the event loop", async () => {
    const indexes = new ScopeIndexes(tableOf(10), { dimension: DIMENSION, maxEntries: 10_000 });
    const index = await indexes.whenReady("s");
    indexes.upsert("s", entries(0, 300));
    const atOnce = index?.size ?? 0;
    expect(atOnce).toBeGreaterThan(10);
    expect(atOnce).toBeLessThan(310);
    for (let turn = 0; turn < 20 && (index?.size ?? 0) < 310; turn++) await nextTurn();
    expect(index?.size).toBe(310);
  });

  it("builds a scope again after a change larger than it applies one by one, or after the scope is dropped", async () => {
    const table = tableOf(10);
    const indexes = new ScopeIndexes(table, { dimension: DIMENSION, maxEntries: 10_000 });
    await indexes.whenReady("s");
    indexes.upsert("s", entries(0, LARGE_CHANGE + 1));
    expect(indexes.ready("s")).toBeUndefined();
    await indexes.whenReady("s");
    indexes.drop("s");
    await indexes.whenReady("s");
    expect(table.reads).toBe(3);
  });

  it("leaves a scope unindexed while it would pass the budget, and tries again later", async () => {
    const reasons: string[] = [];
    const indexes = new ScopeIndexes(tableOf(50), { dimension: DIMENSION, maxEntries: 49, retryAfterMs: 0, onUnavailable: (_scope, error) => reasons.push(String(error)) });
    expect(await indexes.whenReady("s")).toBeUndefined();
    expect(reasons).toEqual(["Error: 50 entries would pass the budget of 49 in memory"]);
    expect(await indexes.whenReady("s")).toBeUndefined();
    expect(reasons).toHaveLength(2);
    expect(indexes.entries).toBe(0);
  });

  it("leaves a scope to the table when a change cannot be applied, instead of failing the process", async () => {
    const reasons: string[] = [];
    const indexes = new ScopeIndexes(tableOf(10), { dimension: DIMENSION, maxEntries: 100, onUnavailable: (_scope, error) => reasons.push(String(error)) });
    await indexes.whenReady("s");
    indexes.upsert("s", [{ id: "wrong", vector: new Float32Array(DIMENSION - 1) }]);
    await nextTurn();
    expect(indexes.ready("s")).toBeUndefined();
    expect(reasons).toHaveLength(1);
  });
});
