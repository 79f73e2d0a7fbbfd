import { cacheScopeKey, type SemanticCacheStore } from "@weft/engine";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { axisVector, DIM } from "./vector-store.fixtures.js";

/**
 * The behaviour every SemanticCacheStore must show. Each adapter's test file calls
 * `describeSemanticCacheContract("pgvector", async (clock) => ({ cache, close }))`: the store must read
 * the time from `clock` (epoch ms) so expiry is tested without waiting. Vectors are 8-dimensional
 * (model "contract-model"); every test uses scopes of its own.
 */

export interface SemanticCacheUnderTest {
  cache: SemanticCacheStore;
  close?: () => Promise<void>;
}

export const CACHE_CONTRACT_MODEL = "contract-model";
export const CACHE_CONTRACT_DIMENSION = DIM;

let counter = 0;
const scope = (label: string) => cacheScopeKey({ kind: "namespace", namespace: `contract-${label}-${process.pid}-${Date.now().toString(36)}-${counter++}` });

export function describeSemanticCacheContract(name: string, factory: (clock: () => number) => Promise<SemanticCacheUnderTest>): void {
  describe(`SemanticCacheStore contract: ${name}`, () => {
    let subject: SemanticCacheUnderTest;
    let now = Date.UTC(2026, 0, 1);
    const cache = () => subject.cache;

    beforeAll(async () => {
      subject = await factory(() => now);
    }, 120_000);

    afterAll(async () => {
      await subject?.close?.();
    }, 60_000);

    beforeEach(() => {
      now += 86_400_000;
    });

    it("names its store and embedding space", () => {
      expect(cache().id).toMatch(/\S/);
      expect(cache().model).toBe(CACHE_CONTRACT_MODEL);
      expect(cache().dimension).toBe(DIM);
    });

    it("misses in an empty scope", async () => {
      expect(await cache().lookup(scope("empty"), axisVector(0), 0.5)).toBeNull();
    });

    it("finds the stored answer again for the same question, with similarity 1", async () => {
      const s = scope("same");
      const answer = { text: "무등산은 2013년에 국립공원이 되었다.", sources: [1, 2], final: true };
      const stored = await cache().put(s, { query: "무등산은 언제 국립공원이 되었나?", vector: axisVector(0), answer, ttlSeconds: 3600 });
      expect(stored).toMatchObject({ scope: s, query: "무등산은 언제 국립공원이 되었나?", answer, createdAt: now, expiresAt: now + 3_600_000 });
      const hit = await cache().lookup(s, axisVector(0), 0.9);
      expect(hit?.entry).toEqual(stored);
      expect(hit?.similarity).toBeCloseTo(1, 3);
    });

    it("hits a similar question above the threshold and misses below it", async () => {
      const s = scope("threshold");
      await cache().put(s, { query: "q", vector: axisVector(0), answer: "a" });
      const similar = axisVector(0, 1, 0.3); // cosine ≈ 0.958
      expect((await cache().lookup(s, similar, 0.95))?.similarity).toBeCloseTo(1 / Math.hypot(1, 0.3), 3);
      expect(await cache().lookup(s, similar, 0.97)).toBeNull();
      expect(await cache().lookup(s, axisVector(4), 0.5)).toBeNull();
    });

    it("returns the nearest of several entries", async () => {
      const s = scope("nearest");
      await cache().put(s, { query: "far", vector: axisVector(0, 1, 1), answer: "far" });
      await cache().put(s, { query: "near", vector: axisVector(0, 1, 0.1), answer: "near" });
      await cache().put(s, { query: "other", vector: axisVector(5), answer: "other" });
      expect((await cache().lookup(s, axisVector(0), 0.5))?.entry.answer).toBe("near");
    });

    it("keeps scopes apart: versions of a workflow and namespaces", async () => {
      const v1 = cacheScopeKey({ kind: "workflow", workflowId: `wf-${counter++}`, version: 1 });
      const v2 = v1.replace(/:v1$/, ":v2");
      const ns = scope("shared");
      await cache().put(v1, { query: "q", vector: axisVector(2), answer: "from v1" });
      expect((await cache().lookup(v1, axisVector(2), 0.9))?.entry.answer).toBe("from v1");
      expect(await cache().lookup(v2, axisVector(2), 0.9)).toBeNull();
      expect(await cache().lookup(ns, axisVector(2), 0.9)).toBeNull();
    });

    it("keeps a namespace with quotes and backslashes in its name to itself", async () => {
      const odd = cacheScopeKey({ kind: "namespace", namespace: `it's a \\'; DROP TABLE x; -- ${counter++}` });
      const plain = cacheScopeKey({ kind: "namespace", namespace: `it's a ${counter++}` });
      await cache().put(odd, { query: "q", vector: axisVector(7), answer: "odd" });
      await cache().put(plain, { query: "q", vector: axisVector(7, 0, 0.1), answer: "plain" });
      expect((await cache().lookup(odd, axisVector(7), 0.9))?.entry).toMatchObject({ scope: odd, answer: "odd" });
      expect((await cache().lookup(plain, axisVector(7), 0.9))?.entry).toMatchObject({ scope: plain, answer: "plain" });
      expect(await cache().clear(odd)).toBe(1);
      expect(await cache().lookup(odd, axisVector(7), 0.9)).toBeNull();
    });

    it("replaces the entry when the same question is stored again in a scope", async () => {
      const s = scope("replace");
      await cache().put(s, { query: "  same question ", vector: axisVector(3), answer: "old" });
      now += 1000;
      await cache().put(s, { query: "same question", vector: axisVector(3), answer: "new" });
      const page = await cache().list(s, { limit: 10 });
      expect(page.total).toBe(1);
      expect(page.entries.map((entry) => entry.answer)).toEqual(["new"]);
      expect((await cache().lookup(s, axisVector(3), 0.9))?.entry.answer).toBe("new");
    });

    it("stops returning an entry once its time to live has passed, and removes it for good", async () => {
      const s = scope("ttl");
      await cache().put(s, { query: "short", vector: axisVector(1), answer: "short", ttlSeconds: 60 });
      await cache().put(s, { query: "forever", vector: axisVector(6), answer: "forever" });
      now += 59_000;
      expect((await cache().lookup(s, axisVector(1), 0.9))?.entry.answer).toBe("short");
      now += 2_000;
      expect(await cache().lookup(s, axisVector(1), 0.9)).toBeNull();
      expect((await cache().list(s, { limit: 10 })).entries.map((entry) => entry.query)).toEqual(["forever"]);
      expect(await cache().removeExpired()).toBeGreaterThanOrEqual(1);
      expect(await cache().removeExpired()).toBe(0);
      expect(await cache().clear(s)).toBe(1);
    });

    it("finds a live entry behind more expired ones that are nearer to the question", async () => {
      const s = scope("behind-expired");
      // Eight expired entries between the question and the live one (expiry is not yet swept).
      const expired = Array.from({ length: 8 }, (_, i) => ({ query: `old ${i}`, vector: axisVector(0, 1 + (i % 7), 0.01 * (i + 1)), answer: `old ${i}`, ttlSeconds: 60 }));
      await cache().putMany(s, expired);
      now += 61_000;
      await cache().put(s, { query: "live", vector: axisVector(0, 1, 0.2), answer: "live" });
      const hit = await cache().lookup(s, axisVector(0), 0.9);
      expect(hit?.entry.answer).toBe("live");
      expect(hit?.similarity).toBeCloseTo(1 / Math.hypot(1, 0.2), 3);
      expect(await cache().lookup(s, axisVector(0), 0.99)).toBeNull();
    });

    it("stores many entries at once as put would, and refuses a batch with a bad entry whole", async () => {
      const s = scope("many");
      await cache().putMany(s, [
        { query: "one", vector: axisVector(0), answer: 1, ttlSeconds: 60 },
        { query: "two", vector: axisVector(1), answer: 2 },
        { query: "one", vector: axisVector(0), answer: "one again" },
      ]);
      const page = await cache().list(s, { limit: 10 });
      expect(page.total).toBe(2);
      expect((await cache().lookup(s, axisVector(0), 0.9))?.entry).toMatchObject({ query: "one", answer: "one again", expiresAt: null });
      await expect(cache().putMany(s, [{ query: "three", vector: axisVector(2), answer: 3 }, { query: "", vector: axisVector(3), answer: 4 }])).rejects.toMatchObject({ code: "INVALID_CACHE_ENTRY" });
      expect((await cache().list(s, { limit: 10 })).total).toBe(2);
    });

    it("lists a scope's live entries newest first, page by page, with the total", async () => {
      const s = scope("list");
      for (let i = 0; i < 5; i++) {
        now += 1000;
        await cache().put(s, { query: `question ${i}`, vector: axisVector(i), answer: i });
      }
      const first = await cache().list(s, { limit: 2 });
      expect(first.total).toBe(5);
      expect(first.entries.map((entry) => entry.answer)).toEqual([4, 3]);
      const last = await cache().list(s, { limit: 2, offset: 4 });
      expect(last.entries.map((entry) => entry.answer)).toEqual([0]);
      expect(await cache().list(scope("nothing"), { limit: 2 })).toEqual({ entries: [], total: 0 });
    });

    it("clears one scope and leaves the others", async () => {
      const a = scope("clear-a");
      const b = scope("clear-b");
      await cache().put(a, { query: "1", vector: axisVector(0), answer: 1 });
      await cache().put(a, { query: "2", vector: axisVector(1), answer: 2 });
      await cache().put(b, { query: "1", vector: axisVector(0), answer: 1 });
      expect(await cache().clear(a)).toBe(2);
      expect(await cache().lookup(a, axisVector(0), 0.9)).toBeNull();
      expect((await cache().lookup(b, axisVector(0), 0.9))?.entry.answer).toBe(1);
      expect(await cache().clear(a)).toBe(0);
    });

    it("refuses vectors of another dimension, thresholds outside [0, 1] and bad entries, storing nothing", async () => {
      const s = scope("refuse");
      await expect(cache().lookup(s, [1, 0, 0], 0.9)).rejects.toMatchObject({ code: "VECTOR_DIMENSION_MISMATCH" });
      await expect(cache().lookup(s, axisVector(0), 1.5)).rejects.toMatchObject({ code: "INVALID_VECTOR_QUERY" });
      await expect(cache().put(s, { query: "q", vector: [1, 0], answer: "a" })).rejects.toMatchObject({ code: "VECTOR_DIMENSION_MISMATCH" });
      await expect(cache().put(s, { query: "q", vector: axisVector(0), answer: "a", ttlSeconds: 0 })).rejects.toMatchObject({ code: "INVALID_CACHE_ENTRY" });
      await expect(cache().put(s, { query: " ", vector: axisVector(0), answer: "a" })).rejects.toMatchObject({ code: "INVALID_CACHE_ENTRY" });
      await expect(cache().list(s, { limit: 0 })).rejects.toMatchObject({ code: "INVALID_VECTOR_QUERY" });
      expect((await cache().list(s, { limit: 10 })).total).toBe(0);
    });
  });
}
