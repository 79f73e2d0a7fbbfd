import { mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { ScopeIndexFiles } from "./scope-index-files.js";
import { LARGE_CHANGE, ScopeIndexes, type ScopeSource } from "./scope-indexes.js";

const DIMENSION = 4;
const unit = (i: number) => Float32Array.from({ length: DIMENSION }, (_, d) => (d === i % DIMENSION ? 1 : 0.01 * (i + 1)));

/** A scope's entries as the table would give them: vectors under ids e0, e1, …, each stored at a time. */
function tableOf(count: number) {
  const rows = new Map<string, { vector: Float32Array; createdAt: number }>();
  for (let i = 0; i < count; i++) rows.set(`e${i}`, { vector: unit(i), createdAt: 1 });
  const read = (ids: readonly string[]) => {
    const live = ids.filter((id) => rows.has(id));
    const page = new Float32Array(live.length * DIMENSION);
    live.forEach((id, i) => page.set(rows.get(id)!.vector, i * DIMENSION));
    return { ids: live, createdAt: live.map((id) => rows.get(id)!.createdAt), pages: [page] };
  };
  const source = {
    rows,
    /** Full reads of every vector (builds). */
    reads: 0,
    /** Vectors read by id (patches of a saved graph). */
    vectorsRead: 0,
    count: () => Promise.resolve(rows.size),
    vectors: () => {
      source.reads++;
      return Promise.resolve(read([...rows.keys()]));
    },
    entries: () => Promise.resolve({ ids: [...rows.keys()], createdAt: [...rows.values()].map((row) => row.createdAt) }),
    vectorsOf: (_scope: string, ids: readonly string[]) => {
      source.vectorsRead += ids.length;
      return Promise.resolve(read(ids));
    },
  } satisfies ScopeSource & Record<string, unknown>;
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

describe("ScopeIndexes kept on disk", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** A process's indexes over `table`, saving beside a data directory (the same one across "restarts"). */
  function processOn(table: ReturnType<typeof tableOf>, dir: string) {
    return new ScopeIndexes(table, { dimension: DIMENSION, maxEntries: 10_000, files: new ScopeIndexFiles(dir, "t", DIMENSION) });
  }

  function dataDir(): string {
    const dir = mkdtempSync(join(tmpdir(), "weft-scope-files-"));
    dirs.push(dir);
    return dir;
  }

  it("saves a built scope, and the next process loads it without reading a vector", async () => {
    const table = tableOf(40);
    const dir = dataDir();
    await processOn(table, dir).whenReady("s");
    expect(table.reads).toBe(1);
    const index = await processOn(table, dir).whenReady("s");
    expect([table.reads, table.vectorsRead]).toEqual([1, 0]);
    expect(index?.size).toBe(40);
    expect(index?.nearest(unit(13), 1)[0]).toMatchObject({ id: "e13" });
  });

  it("patches what changed in the table since the save — stored, stored again, removed — reading only those vectors, and saves the result", async () => {
    const table = tableOf(40);
    const dir = dataDir();
    await processOn(table, dir).whenReady("s");
    // While no process kept the graph (or after a crash): three new entries, one stored again with another vector, two removed.
    for (const i of [100, 101, 102]) table.rows.set(`n${i}`, { vector: unit(i), createdAt: 2 });
    table.rows.set("e5", { vector: unit(7), createdAt: 3 });
    table.rows.delete("e8");
    table.rows.delete("e9");
    const index = await processOn(table, dir).whenReady("s");
    expect([table.reads, table.vectorsRead]).toEqual([1, 4]);
    expect(index?.size).toBe(41);
    expect(index?.nearest(unit(101), 1)[0]).toMatchObject({ id: "n101" });
    expect(index?.nearest(unit(8), 3).map((n) => n.id)).not.toContain("e8");
    expect(index?.nearest(unit(7), 2).map((n) => n.id).sort()).toEqual(["e5", "e7"]);
    // The patched graph was saved: a third process has nothing to read.
    await processOn(table, dir).whenReady("s");
    expect([table.reads, table.vectorsRead]).toEqual([1, 4]);
    expect(readdirSync(dir).filter((name) => name.endsWith(".usearch"))).toHaveLength(1);
  });

  it("does not trust a graph cut short, a manifest naming another graph, or one for another dimension: the scope is built from the table", async () => {
    const table = tableOf(30);
    const dir = dataDir();
    await processOn(table, dir).whenReady("s");
    const graph = join(dir, readdirSync(dir).find((name) => name.endsWith(".usearch"))!);
    const manifest = join(dir, readdirSync(dir).find((name) => name.endsWith(".json"))!);
    truncateSync(graph, 100);
    expect((await processOn(table, dir).whenReady("s"))?.size).toBe(30);
    expect(table.reads).toBe(2);

    const saved = JSON.parse(readFileSync(manifest, "utf8")) as { graph: string; dimension: number };
    writeFileSync(manifest, JSON.stringify({ ...saved, graph: "elsewhere.usearch" }));
    await processOn(table, dir).whenReady("s");
    expect(table.reads).toBe(3);

    const other = new ScopeIndexes(table, { dimension: DIMENSION + 1, maxEntries: 10_000, files: new ScopeIndexFiles(dir, "t", DIMENSION + 1) });
    await other.whenReady("s").catch(() => undefined);
    expect(table.reads).toBe(4);
  });

  it("builds a scope anew when most of its saved entries are gone, and forgets the saved scope when it is dropped", async () => {
    const table = tableOf(20);
    const dir = dataDir();
    await processOn(table, dir).whenReady("s");
    for (let i = 0; i < 15; i++) table.rows.delete(`e${i}`);
    const indexes = processOn(table, dir);
    expect((await indexes.whenReady("s"))?.size).toBe(5);
    expect(table.reads).toBe(2);
    indexes.drop("s");
    await until(() => readdirSync(dir).length === 0);
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 1_000 && !condition(); turn++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
}
