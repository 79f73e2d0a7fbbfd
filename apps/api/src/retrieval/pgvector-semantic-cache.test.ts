import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite/vector";
import { axisVector, CACHE_CONTRACT_DIMENSION, CACHE_CONTRACT_MODEL, describeSemanticCacheContract } from "@weft/providers/testing";
import { describe, expect, it } from "vitest";
import { pgliteRawSql } from "../db/raw-sql.js";
import { CACHE_EF_SEARCH, PgvectorSemanticCache, pgvectorCacheTableName } from "./pgvector-semantic-cache.js";

describeSemanticCacheContract("pgvector in PGlite", async (clock) => {
  const dir = mkdtempSync(join(tmpdir(), "weft-pgvector-cache-"));
  const db = await PGlite.create({ dataDir: dir, extensions: { vector } });
  return {
    cache: new PgvectorSemanticCache(pgliteRawSql(db), { model: CACHE_CONTRACT_MODEL, dimension: CACHE_CONTRACT_DIMENSION, now: clock }),
    close: async () => {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describeSemanticCacheContract("pgvector in PGlite, looked up through the in-memory index", async (clock) => {
  const dir = mkdtempSync(join(tmpdir(), "weft-pgvector-cache-"));
  const db = await PGlite.create({ dataDir: dir, extensions: { vector } });
  return {
    cache: new PgvectorSemanticCache(pgliteRawSql(db), { model: CACHE_CONTRACT_MODEL, dimension: CACHE_CONTRACT_DIMENSION, now: clock, memoryIndex: {
        maxEntries: 10_000,
        waitForIndex: true,
        onUnavailable: (_scope, error) => {
          throw error;
        },
      },
    }),
    close: async () => {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describeSemanticCacheContract("pgvector in PGlite, through the in-memory index saved beside the data directory", async (clock) => {
  const dir = mkdtempSync(join(tmpdir(), "weft-pgvector-cache-"));
  const db = await PGlite.create({ dataDir: join(dir, "pglite"), extensions: { vector } });
  return {
    cache: new PgvectorSemanticCache(pgliteRawSql(db), { model: CACHE_CONTRACT_MODEL, dimension: CACHE_CONTRACT_DIMENSION, now: clock, memoryIndex: {
        maxEntries: 10_000,
        waitForIndex: true,
        directory: join(dir, "cache-index"),
        onUnavailable: (_scope, error) => {
          throw error;
        },
      },
    }),
    close: async () => {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe("PgvectorSemanticCache", () => {
  it("keeps each embedding model in its own table", () => {
    const names = [pgvectorCacheTableName("weft-local-hash-v1", 512), pgvectorCacheTableName("mistral-embed", 1024), pgvectorCacheTableName("weft-local-hash-v1", 256)];
    expect(new Set(names).size).toBe(3);
    for (const name of names) expect(name).toMatch(/^[a-z_][a-z0-9_]{0,62}$/);
  });

  it("loads a large batch with the HNSW index dropped and built again afterwards, and still finds a small scope's entry beside it", async () => {
    const db = await PGlite.create({ extensions: { vector } });
    const cache = new PgvectorSemanticCache(pgliteRawSql(db), { model: "bulk", dimension: 8 });
    const puts = Array.from({ length: 300 }, (_, i) => ({ query: `question ${i}`, vector: axisVector(i % 8, (i + 1) % 8, i / 300), answer: i }));
    await cache.putMany("ns:bulk", puts);
    const indexes = await db.query<{ indexname: string }>("SELECT indexname FROM pg_indexes WHERE tablename = $1", [pgvectorCacheTableName("bulk", 8)]);
    expect(indexes.rows.map((row) => row.indexname).filter((name) => name.endsWith("_hnsw"))).toHaveLength(1);
    expect((await cache.list("ns:bulk", { limit: 1 })).total).toBe(300);
    expect((await cache.lookup("ns:bulk", puts[17]!.vector, 0.999))?.entry.answer).toBe(17);
    await cache.put("ns:small", { query: "only one", vector: axisVector(3, 4, 0.05), answer: "small" });
    expect((await cache.lookup("ns:small", axisVector(3), 0.9))?.entry.answer).toBe("small");
    await db.close();
  });

  it("sends a lookup with its own ef_search in the same message, leaving the session's setting as it was", async () => {
    const db = await PGlite.create({ extensions: { vector } });
    const raw = pgliteRawSql(db);
    const scripts: string[] = [];
    const cache = new PgvectorSemanticCache({ ...raw, script: (sql) => (scripts.push(sql), raw.script(sql)) }, { model: "ef", dimension: 8 });
    await cache.put("ns:ef", { query: "q", vector: axisVector(1), answer: "a" });
    await db.exec("SET hnsw.ef_search = 1");
    expect((await cache.lookup("ns:ef", axisVector(1), 0.9))?.entry.answer).toBe("a");
    expect(scripts[0]).toMatch(new RegExp(`^SET LOCAL hnsw\\.ef_search = ${CACHE_EF_SEARCH}; SELECT `));
    expect((await db.query<{ ef: string }>("SELECT current_setting('hnsw.ef_search') AS ef")).rows[0]?.ef).toBe("1");
    await db.close();
  });

  it("writes the question's vector once in a lookup, and the lookup can still walk the HNSW index", async () => {
    const db = await PGlite.create({ extensions: { vector } });
    const raw = pgliteRawSql(db);
    const scripts: string[] = [];
    const cache = new PgvectorSemanticCache({ ...raw, script: (sql) => (scripts.push(sql), raw.script(sql)) }, { model: "plan", dimension: 8 });
    await cache.putMany("ns:plan", Array.from({ length: 60 }, (_, i) => ({ query: `question ${i}`, vector: axisVector(i % 8, (i + 3) % 8, i / 60), answer: i })));
    expect((await cache.lookup("ns:plan", axisVector(2, 5, 2 / 60), 0.99))?.entry.answer).toBe(2);
    const lookup = scripts[0]!.replace(/^SET LOCAL [^;]+; /, "");
    expect(lookup.match(/::vector/g)).toHaveLength(1);
    // With the other ways to order the rows made expensive, the plan shows whether the index can serve this ORDER BY.
    await db.exec("SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_sort = off");
    const plan = (await db.query<{ "QUERY PLAN": string }>(`EXPLAIN ${lookup}`)).rows.map((row) => row["QUERY PLAN"]).join("\n");
    expect(plan).toContain(`Index Scan using ${pgvectorCacheTableName("plan", 8)}_hnsw`);
    await db.close();
  });
});

describe("PgvectorSemanticCache with an in-memory index", () => {
  async function indexedCache(options: { maxEntries?: number; waitForIndex?: boolean } = {}) {
    const db = await PGlite.create({ extensions: { vector } });
    const raw = pgliteRawSql(db);
    const scripts: string[] = [];
    const unavailable: string[] = [];
    const cache = new PgvectorSemanticCache(
      { ...raw, script: (sql) => (scripts.push(sql), raw.script(sql)) },
      {
        model: "memory",
        dimension: 8,
        memoryIndex: { maxEntries: options.maxEntries ?? 1_000, waitForIndex: options.waitForIndex ?? false, onUnavailable: (_scope, error) => unavailable.push(String(error)) },
      },
    );
    const puts = Array.from({ length: 40 }, (_, i) => ({ query: `question ${i}`, vector: axisVector(i % 8, (i + 3) % 8, i / 40), answer: i }));
    await cache.putMany("ns:memory", puts);
    return { db, cache, scripts, unavailable, puts };
  }

  it("answers a miss from the index alone and reads only the nearest entries' rows for a hit", async () => {
    const { db, cache, scripts, unavailable, puts } = await indexedCache();
    expect(await cache.prepareScope("ns:memory")).toBe(true);
    expect(await cache.lookup("ns:memory", axisVector(0, 1, 0.5), 0.999)).toBeNull();
    expect(scripts).toHaveLength(0);
    const hit = await cache.lookup("ns:memory", puts[9]!.vector, 0.99);
    expect(hit?.entry.answer).toBe(9);
    expect(hit?.similarity).toBeCloseTo(1, 6);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toMatch(/WHERE id IN \('[^']+'(, '[^']+')*\) AND scope = 'ns:memory'/);
    expect(unavailable).toEqual([]);
    await db.close();
  });

  it("looks up in the table while a scope's index is being built, then through the index", async () => {
    const { db, cache, scripts, puts } = await indexedCache();
    expect((await cache.lookup("ns:memory", puts[5]!.vector, 0.99))?.entry.answer).toBe(5);
    expect(scripts[0]).toMatch(/^SET LOCAL hnsw\.ef_search/);
    await cache.prepareScope("ns:memory");
    scripts.length = 0;
    expect((await cache.lookup("ns:memory", puts[5]!.vector, 0.99))?.entry.answer).toBe(5);
    expect(scripts[0]).toMatch(/WHERE id IN/);
    await db.close();
  });

  it("keeps the index in step with entries stored, stored again and cleared", async () => {
    const { db, cache, scripts } = await indexedCache({ waitForIndex: true });
    await cache.prepareScope("ns:memory");
    await cache.put("ns:memory", { query: "new one", vector: axisVector(6, 7, 0.9), answer: "first" });
    await cache.put("ns:memory", { query: "new one", vector: axisVector(6, 7, 0.9), answer: "second" });
    expect((await cache.lookup("ns:memory", axisVector(6, 7, 0.9), 0.999))?.entry.answer).toBe("second");
    expect(scripts.every((sql) => sql.includes("WHERE id IN"))).toBe(true);
    await cache.clear("ns:memory");
    expect(await cache.lookup("ns:memory", axisVector(6, 7, 0.9), 0.5)).toBeNull();
    await cache.put("ns:memory", { query: "after clearing", vector: axisVector(2), answer: "back" });
    expect((await cache.lookup("ns:memory", axisVector(2), 0.99))?.entry.answer).toBe("back");
    await db.close();
  });

  it("leaves a scope that would pass the entry budget to the table, and says why", async () => {
    const { db, cache, scripts, unavailable, puts } = await indexedCache({ maxEntries: 10 });
    expect(await cache.prepareScope("ns:memory")).toBe(false);
    expect(unavailable[0]).toContain("40 entries would pass the budget of 10");
    expect((await cache.lookup("ns:memory", puts[3]!.vector, 0.99))?.entry.answer).toBe(3);
    expect(scripts.at(-1)).toMatch(/^SET LOCAL hnsw\.ef_search/);
    await db.close();
  });

  it("a restarted process starts from the saved index, with what was stored or removed while it was down", async () => {
    const dir = mkdtempSync(join(tmpdir(), "weft-pgvector-cache-"));
    const db = await PGlite.create({ dataDir: join(dir, "pglite"), extensions: { vector } });
    const raw = pgliteRawSql(db);
    const open = (now = Date.now) => {
      const vectorReads: string[] = [];
      const cache = new PgvectorSemanticCache(
        { ...raw, query: (sql, params) => (/vector_send/.test(sql) && vectorReads.push(sql), raw.query(sql, params)) },
        { model: "saved", dimension: 8, now, memoryIndex: { maxEntries: 1_000, waitForIndex: true, directory: join(dir, "cache-index") } },
      );
      return { cache, vectorReads };
    };
    const puts = Array.from({ length: 40 }, (_, i) => ({ query: `question ${i}`, vector: axisVector(i % 8, (i + 3) % 8, i / 40), answer: i }));
    const first = open();
    await first.cache.putMany("ns:saved", puts);
    expect(await first.cache.prepareScope("ns:saved")).toBe(true);
    expect(first.vectorReads).toHaveLength(1);
    // Written by another store on the same table while no process kept the index (as after a crash).
    const plain = new PgvectorSemanticCache(raw, { model: "saved", dimension: 8 });
    await plain.put("ns:saved", { query: "asked while down", vector: axisVector(5, 6, 0.7), answer: "new" });
    await plain.put("ns:saved", { query: "question 9", vector: axisVector(2, 3, 0.2), answer: "stored again" });
    await plain.put("ns:saved", { query: "short-lived", vector: axisVector(7, 0, 0.4), answer: "expires", ttlSeconds: 1 });

    const later = open(() => Date.now() + 5_000);
    expect(await later.cache.prepareScope("ns:saved")).toBe(true);
    // Only the two entries the saved graph lacked were read with their vectors, by id.
    expect(later.vectorReads).toHaveLength(1);
    expect(later.vectorReads[0]).toContain("ANY($4::text[])");
    expect((await later.cache.lookup("ns:saved", axisVector(5, 6, 0.7), 0.99))?.entry.answer).toBe("new");
    expect((await later.cache.lookup("ns:saved", axisVector(2, 3, 0.2), 0.99))?.entry.answer).toBe("stored again");
    expect((await later.cache.lookup("ns:saved", puts[20]!.vector, 0.99))?.entry.answer).toBe(20);
    expect(await later.cache.lookup("ns:saved", axisVector(7, 0, 0.4), 0.99)).toBeNull();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
