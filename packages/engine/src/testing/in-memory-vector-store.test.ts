import { describe, expect, it } from "vitest";
import type { StoredChunk } from "../providers/retrieval.js";
import { InMemoryVectorStore } from "./in-memory-vector-store.js";

const chunk = (id: string, vector: number[], documentId = "d1", metadata?: StoredChunk["metadata"]): StoredChunk => ({
  id,
  text: `text ${id}`,
  vector,
  source: { documentId, title: `doc ${documentId}`, chunkIndex: Number(id.slice(1)) },
  metadata,
});

async function seeded() {
  const store = new InMemoryVectorStore();
  await store.ensureCollection("kb", 2);
  await store.upsert("kb", [chunk("c0", [1, 0]), chunk("c1", [0, 1], "d2", { lang: "ko" }), chunk("c2", [1, 1])]);
  return store;
}

describe("InMemoryVectorStore", () => {
  it("returns the top_k nearest chunks by cosine similarity, best first, scored in [0, 1]", async () => {
    const hits = await (await seeded()).search("kb", { vector: [1, 0.1], topK: 2 });
    expect(hits.map((hit) => hit.id)).toEqual(["c0", "c2"]);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    expect(hits.every((hit) => hit.score >= 0 && hit.score <= 1)).toBe(true);
  });

  it("filters on metadata and forgets a deleted document", async () => {
    const store = await seeded();
    expect((await store.search("kb", { vector: [1, 0], topK: 5, filter: { metadata: { lang: "ko" } } })).map((hit) => hit.id)).toEqual(["c1"]);
    await store.deleteDocument("kb", "d1");
    expect((await store.search("kb", { vector: [1, 0], topK: 5 })).map((hit) => hit.id)).toEqual(["c1"]);
  });

  it("refuses vectors of another dimension and unknown collections", async () => {
    const store = await seeded();
    await expect(store.upsert("kb", [chunk("c9", [1, 2, 3])])).rejects.toMatchObject({ code: "VECTOR_DIMENSION_MISMATCH" });
    await expect(store.ensureCollection("kb", 3)).rejects.toMatchObject({ code: "VECTOR_DIMENSION_MISMATCH" });
    await expect(store.search("nope", { vector: [1, 0], topK: 1 })).rejects.toMatchObject({ code: "COLLECTION_NOT_FOUND" });
    await store.dropCollection("kb");
    await expect(store.search("kb", { vector: [1, 0], topK: 1 })).rejects.toMatchObject({ code: "COLLECTION_NOT_FOUND" });
  });
});
