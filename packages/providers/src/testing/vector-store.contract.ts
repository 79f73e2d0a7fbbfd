import type { StoredChunk, VectorStore } from "@weft/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axisVector, chunk, DIM } from "./vector-store.fixtures.js";
import { defineRetrievalCases } from "./vector-store-retrieval.contract.js";

export { axisVector, chunk } from "./vector-store.fixtures.js";

/**
 * The behaviour every VectorStore must show. Each adapter's test file calls
 * `describeVectorStoreContract("pgvector", async () => ({ store, close }))`; the suite creates its own
 * collections with unique names and drops them. Vectors are 8-dimensional and hand-built so the
 * expected order is obvious.
 */

export interface VectorStoreUnderTest {
  store: VectorStore;
  close?: () => Promise<void>;
}

let counter = 0;
const uniqueName = (label: string) => `contract_${label}_${process.pid}_${Date.now().toString(36)}_${counter++}`;

export function describeVectorStoreContract(name: string, factory: () => Promise<VectorStoreUnderTest>): void {
  describe(`VectorStore contract: ${name}`, () => {
    let subject: VectorStoreUnderTest;
    const created: string[] = [];
    const store = () => subject.store;

    async function freshCollection(label: string, chunks: StoredChunk[] = []): Promise<string> {
      const collection = uniqueName(label);
      created.push(collection);
      await store().ensureCollection(collection, DIM);
      if (chunks.length > 0) await store().upsert(collection, chunks);
      return collection;
    }

    beforeAll(async () => {
      subject = await factory();
    }, 120_000);

    afterAll(async () => {
      if (!subject) return;
      for (const collection of created) await subject.store.dropCollection(collection);
      await subject.close?.();
    }, 60_000);

    it("has a non-empty id to record on node runs", () => {
      expect(store().id).toMatch(/\S/);
    });

    it("creates collections idempotently and finds nothing in an empty one", async () => {
      const collection = await freshCollection("empty");
      await store().ensureCollection(collection, DIM);
      expect(await store().search(collection, { vector: axisVector(0), topK: 5 })).toEqual([]);
    });

    it("refuses to reuse a collection with another dimension", async () => {
      const collection = await freshCollection("redim", [chunk("c1", axisVector(0))]);
      await expect(store().ensureCollection(collection, DIM * 2)).rejects.toMatchObject({ code: "VECTOR_DIMENSION_MISMATCH" });
    });

    it("returns chunks ordered by cosine similarity with scores in [0, 1]", async () => {
      const collection = await freshCollection("order", [
        chunk("c1", axisVector(0)),
        chunk("c2", axisVector(0, 1, 0.5)),
        chunk("c3", axisVector(0, 1, 2)),
        chunk("c4", axisVector(4)),
      ]);
      const hits = await store().search(collection, { vector: axisVector(0), topK: 4 });
      expect(hits.map((hit) => hit.id)).toEqual(["c1", "c2", "c3", "c4"]);
      expect(hits[0]?.score).toBeCloseTo(1, 3);
      expect(hits[1]?.score).toBeCloseTo(1 / Math.hypot(1, 0.5), 3);
      for (const hit of hits) {
        expect(hit.score).toBeGreaterThanOrEqual(0);
        expect(hit.score).toBeLessThanOrEqual(1);
      }
      expect(hits[3]?.score).toBeCloseTo(0, 3);
    });

    it("returns the stored text and source of each hit", async () => {
      const stored = chunk("c7", axisVector(2), { documentId: "doc-9", text: "안녕하세요, 세계", source: { documentId: "doc-9", title: "인사", chunkIndex: 7, page: 3 } });
      const collection = await freshCollection("roundtrip", [stored]);
      const [hit] = await store().search(collection, { vector: axisVector(2), topK: 1 });
      expect(hit).toMatchObject({ id: "c7", text: "안녕하세요, 세계", source: { documentId: "doc-9", title: "인사", chunkIndex: 7, page: 3 } });
    });

    it("returns at most topK hits", async () => {
      const chunks = Array.from({ length: 12 }, (_, i) => chunk(`c${i}`, axisVector(i % DIM, (i + 1) % DIM, i / 10)));
      const collection = await freshCollection("topk", chunks);
      expect(await store().search(collection, { vector: axisVector(0), topK: 3 })).toHaveLength(3);
      expect(await store().search(collection, { vector: axisVector(0), topK: 50 })).toHaveLength(12);
    });

    it("replaces a chunk upserted again under the same id", async () => {
      const collection = await freshCollection("upsert", [chunk("c1", axisVector(0))]);
      await store().upsert(collection, [chunk("c1", axisVector(3), { text: "replaced" })]);
      const hits = await store().search(collection, { vector: axisVector(3), topK: 10 });
      expect(hits).toHaveLength(1);
      expect(hits[0]).toMatchObject({ id: "c1", text: "replaced" });
      expect(hits[0]?.score).toBeCloseTo(1, 3);
    });

    it("deletes every chunk of one document and nothing else", async () => {
      const collection = await freshCollection("delete", [
        chunk("c1", axisVector(0), { documentId: "keep" }),
        chunk("c2", axisVector(1), { documentId: "drop" }),
        chunk("c3", axisVector(2), { documentId: "drop" }),
      ]);
      await store().deleteDocument(collection, "drop");
      await store().deleteDocument(collection, "never-existed");
      const hits = await store().search(collection, { vector: axisVector(1), topK: 10 });
      expect(hits.map((hit) => hit.id)).toEqual(["c1"]);
    });

    it("refuses vectors and queries of the wrong dimension", async () => {
      const collection = await freshCollection("dims", [chunk("c1", axisVector(0))]);
      await expect(store().upsert(collection, [chunk("bad", [1, 0, 0])])).rejects.toMatchObject({ code: "VECTOR_DIMENSION_MISMATCH" });
      await expect(store().search(collection, { vector: [1, 0, 0], topK: 1 })).rejects.toMatchObject({ code: "VECTOR_DIMENSION_MISMATCH" });
      expect(await store().search(collection, { vector: axisVector(0), topK: 5 })).toHaveLength(1);
    });

    defineRetrievalCases({ store, freshCollection });

    it("refuses a topK outside its limits", async () => {
      const collection = await freshCollection("limits");
      await expect(store().search(collection, { vector: axisVector(0), topK: 0 })).rejects.toMatchObject({ code: "INVALID_VECTOR_QUERY" });
    });

    it("keeps collections apart", async () => {
      const first = await freshCollection("apart_a", [chunk("c1", axisVector(0))]);
      const second = await freshCollection("apart_b", [chunk("c9", axisVector(0))]);
      expect((await store().search(first, { vector: axisVector(0), topK: 5 })).map((hit) => hit.id)).toEqual(["c1"]);
      expect((await store().search(second, { vector: axisVector(0), topK: 5 })).map((hit) => hit.id)).toEqual(["c9"]);
    });

    it("drops a collection, after which searching it is a clear error", async () => {
      const collection = await freshCollection("drop", [chunk("c1", axisVector(0))]);
      await store().dropCollection(collection);
      await store().dropCollection(collection);
      await expect(store().search(collection, { vector: axisVector(0), topK: 1 })).rejects.toMatchObject({ code: "VECTOR_COLLECTION_NOT_FOUND" });
    });
  });
}
