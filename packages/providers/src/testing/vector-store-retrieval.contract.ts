import type { ChunkFilter, StoredChunk, VectorStore } from "@weft/engine";
import { beforeAll, describe, expect, it } from "vitest";
import { axisVector, chunk } from "./vector-store.fixtures.js";

/**
 * The retrieval part of the VectorStore contract: typed filters, alpha, multi-query search and
 * neighbour lookup. Called from `describeVectorStoreContract`, which owns the store and collections.
 */

export interface RetrievalContractContext {
  store: () => VectorStore;
  freshCollection: (label: string, chunks?: StoredChunk[]) => Promise<string>;
}

/** Chunk `id` of `documentId` at `chunkIndex`, with a page and metadata, tilted a little off axis 0 so the order is known. */
function placed(id: string, documentId: string, chunkIndex: number, tilt: number, extra: Partial<StoredChunk> = {}): StoredChunk {
  return chunk(id, axisVector(0, 1, tilt), {
    documentId,
    source: { documentId, title: `Title of ${documentId}`, chunkIndex, page: null },
    ...extra,
  });
}

function filterCorpus(): StoredChunk[] {
  return [
    placed("c1", "a", 0, 0.0, { source: { documentId: "a", title: "manual.md", chunkIndex: 0, page: 1 }, metadata: { lang: "ko", year: 2025, public: true } }),
    placed("c2", "a", 1, 0.1, { source: { documentId: "a", title: "manual.md", chunkIndex: 1, page: 2 }, metadata: { lang: "en", year: 2024, public: false } }),
    placed("c3", "b", 0, 0.2, { source: { documentId: "b", title: "the manual.md", chunkIndex: 0, page: 3 }, metadata: { lang: "ko", year: 2025, category: "faq" } }),
    placed("c4", "b", 1, 0.3, { source: { documentId: "b", title: "the manual.md", chunkIndex: 1, page: null }, metadata: { lang: "ko", year: 2023, category: "guide" } }),
    placed("c5", "c", 5, 0.4, { source: { documentId: "c", title: "광주 안내서", chunkIndex: 5, page: 7 }, metadata: { lang: "ko", category: "가이드" } }),
  ];
}

export function defineRetrievalCases({ store, freshCollection }: RetrievalContractContext): void {
  describe("filters", () => {
    let collection: string;
    const ids = async (filter: ChunkFilter) => (await store().search(collection, { vector: axisVector(0), topK: 10, filter })).map((hit) => hit.id);

    beforeAll(async () => {
      collection = await freshCollection("filter", filterCorpus());
    });

    it("match the document id, one or any of several", async () => {
      expect(await ids({ documentId: "b" })).toEqual(["c3", "c4"]);
      expect(await ids({ documentId: ["a", "c"] })).toEqual(["c1", "c2", "c5"]);
      expect(await ids({ documentId: "missing" })).toEqual([]);
    });

    it("match the source title exactly, never by the words in it", async () => {
      expect(await ids({ source: "manual.md" })).toEqual(["c1", "c2"]);
      expect(await ids({ source: ["the manual.md", "광주 안내서"] })).toEqual(["c3", "c4", "c5"]);
      expect(await ids({ source: "manual" })).toEqual([]);
    });

    it("match a page range inclusively, and never a chunk without a page", async () => {
      expect(await ids({ page: { gte: 2, lte: 3 } })).toEqual(["c2", "c3"]);
      expect(await ids({ page: { gte: 3 } })).toEqual(["c3", "c5"]);
      expect(await ids({ page: { lte: 1 } })).toEqual(["c1"]);
      expect(await ids({ page: [1, 7] })).toEqual(["c1", "c5"]);
      expect(await ids({ chunkIndex: { gte: 1 } })).toEqual(["c2", "c4", "c5"]);
    });

    it("match metadata by value, any of a list, or a numeric range, with numbers never matching strings", async () => {
      expect(await ids({ metadata: { lang: "en" } })).toEqual(["c2"]);
      expect(await ids({ metadata: { category: ["faq", "가이드"] } })).toEqual(["c3", "c5"]);
      expect(await ids({ metadata: { year: 2025 } })).toEqual(["c1", "c3"]);
      expect(await ids({ metadata: { year: "2025" } })).toEqual([]);
      expect(await ids({ metadata: { lang: 1 } })).toEqual([]);
      expect(await ids({ metadata: { year: { gte: 2024 } } })).toEqual(["c1", "c2", "c3"]);
      expect(await ids({ metadata: { public: false } })).toEqual(["c2"]);
      expect(await ids({ metadata: { unknownKey: "x" } })).toEqual([]);
    });

    it("require every condition at once", async () => {
      expect(await ids({ documentId: "b", metadata: { lang: "ko", year: { lte: 2023 } } })).toEqual(["c4"]);
      expect(await ids({ source: "manual.md", page: { gte: 2 }, metadata: { lang: "en" } })).toEqual(["c2"]);
      expect(await ids({ documentId: "a", metadata: { category: "faq" } })).toEqual([]);
    });

    it("are refused when malformed, naming the field", async () => {
      await expect(store().search(collection, { vector: axisVector(0), topK: 3, filter: { page: { gte: 5, lte: 2 } } })).rejects.toMatchObject({ code: "INVALID_VECTOR_QUERY" });
      await expect(store().search(collection, { vector: axisVector(0), topK: 3, filter: { documentId: [] } })).rejects.toMatchObject({
        code: "INVALID_VECTOR_QUERY",
        message: expect.stringContaining("documentId"),
      });
    });
  });

  describe("alpha", () => {
    it("ranks by vectors alone at alpha 1, and is ignored by stores without keyword search", async () => {
      const collection = await freshCollection("alpha", [
        chunk("c1", axisVector(0), { text: "the scheduler starts nodes" }),
        chunk("c2", axisVector(5), { text: "rate limit retry after" }),
      ]);
      const order = async (alpha: number) => (await store().search(collection, { vector: axisVector(0), text: "rate limit", alpha, topK: 2 })).map((hit) => hit.id);
      expect(await order(1)).toEqual(["c1", "c2"]);
      if (!store().keywordSearch) expect(await order(0)).toEqual(["c1", "c2"]);
    });
  });

  describe("multi-query search", () => {
    let collection: string;
    const corpus = [
      chunk("c1", axisVector(0)),
      chunk("c2", axisVector(0, 1, 0.6)),
      chunk("c3", axisVector(3)),
      chunk("c4", axisVector(3, 4, 0.6)),
      chunk("c5", axisVector(6), { documentId: "other" }),
    ];

    beforeAll(async () => {
      collection = await freshCollection("multi", corpus);
    });

    it("merges the hits of every query, best first", async () => {
      const hits = await store().searchMany(collection, { queries: [{ vector: axisVector(0) }, { vector: axisVector(3) }], topK: 2 });
      expect(hits.map((hit) => hit.id).sort()).toEqual(["c1", "c3"]);
      const four = await store().searchMany(collection, { queries: [{ vector: axisVector(0) }, { vector: axisVector(3) }], topK: 4 });
      expect(four.map((hit) => hit.id).slice(2).sort()).toEqual(["c2", "c4"]);
      expect(four.map((hit) => hit.score)).toEqual([...four.map((hit) => hit.score)].sort((a, b) => b - a));
    });

    it("lists a chunk found by several queries once, with its best score", async () => {
      const hits = await store().searchMany(collection, { queries: [{ vector: axisVector(0, 1, 0.6) }, { vector: axisVector(0) }], topK: 5 });
      const ids = hits.map((hit) => hit.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(hits.find((hit) => hit.id === "c1")?.score).toBeCloseTo(1, 3);
      expect(hits.find((hit) => hit.id === "c2")?.score).toBeCloseTo(1, 3);
    });

    it("gives a single query the same hits as search", async () => {
      const one = await store().searchMany(collection, { queries: [{ vector: axisVector(3) }], topK: 3 });
      const plain = await store().search(collection, { vector: axisVector(3), topK: 3 });
      expect(one.map((hit) => hit.id)).toEqual(plain.map((hit) => hit.id));
    });

    it("applies one filter to every query", async () => {
      const hits = await store().searchMany(collection, { queries: [{ vector: axisVector(0) }, { vector: axisVector(6) }], topK: 5, filter: { documentId: "other" } });
      expect(hits.map((hit) => hit.id)).toEqual(["c5"]);
    });

    it("refuses no queries or too many", async () => {
      await expect(store().searchMany(collection, { queries: [], topK: 3 })).rejects.toMatchObject({ code: "INVALID_VECTOR_QUERY" });
      const many = Array.from({ length: 21 }, () => ({ vector: axisVector(0) }));
      await expect(store().searchMany(collection, { queries: many, topK: 3 })).rejects.toMatchObject({ code: "INVALID_VECTOR_QUERY" });
    });
  });

  describe("neighbours", () => {
    let collection: string;
    const document = (documentId: string, count: number) =>
      Array.from({ length: count }, (_, index) => placed(`${documentId}-${index}`, documentId, index, index / 10, { text: `${documentId} part ${index}` }));
    const ids = async (anchors: { documentId: string; chunkIndex: number }[], window: number) => (await store().neighbours(collection, anchors, window)).map((found) => found.id);

    beforeAll(async () => {
      collection = await freshCollection("neighbours", [...document("d1", 10), ...document("d2", 3)]);
    });

    it("returns the chunks within the window of an anchor in its own document, in order", async () => {
      expect(await ids([{ documentId: "d1", chunkIndex: 4 }], 1)).toEqual(["d1-3", "d1-4", "d1-5"]);
      expect(await ids([{ documentId: "d1", chunkIndex: 4 }], 0)).toEqual(["d1-4"]);
      const [first] = await store().neighbours(collection, [{ documentId: "d2", chunkIndex: 0 }], 0);
      expect(first).toMatchObject({ id: "d2-0", text: "d2 part 0", source: { documentId: "d2", chunkIndex: 0 } });
    });

    it("stops at the ends of a document and lists overlapping windows once", async () => {
      expect(await ids([{ documentId: "d1", chunkIndex: 0 }], 2)).toEqual(["d1-0", "d1-1", "d1-2"]);
      expect(await ids([{ documentId: "d1", chunkIndex: 9 }], 3)).toEqual(["d1-6", "d1-7", "d1-8", "d1-9"]);
      expect(await ids([{ documentId: "d1", chunkIndex: 5 }, { documentId: "d1", chunkIndex: 4 }], 1)).toEqual(["d1-3", "d1-4", "d1-5", "d1-6"]);
    });

    it("orders documents by their first anchor and ignores unknown documents", async () => {
      const found = await ids([{ documentId: "d2", chunkIndex: 1 }, { documentId: "nowhere", chunkIndex: 0 }, { documentId: "d1", chunkIndex: 8 }], 1);
      expect(found).toEqual(["d2-0", "d2-1", "d2-2", "d1-7", "d1-8", "d1-9"]);
      expect(await ids([], 2)).toEqual([]);
    });

    it("refuses a window outside 0 to 20 and fails clearly on a missing collection", async () => {
      await expect(store().neighbours(collection, [{ documentId: "d1", chunkIndex: 1 }], 21)).rejects.toMatchObject({ code: "INVALID_VECTOR_QUERY" });
      await expect(store().neighbours(collection, [{ documentId: "d1", chunkIndex: 1 }], -1)).rejects.toMatchObject({ code: "INVALID_VECTOR_QUERY" });
      await expect(store().neighbours(`${collection}_missing`, [{ documentId: "d1", chunkIndex: 1 }], 1)).rejects.toMatchObject({ code: "VECTOR_COLLECTION_NOT_FOUND" });
    });
  });
}
