import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axisVector, chunk, describeVectorStoreContract } from "../testing/vector-store.contract.js";
import { startWeaviateServer } from "../testing/weaviate-server.js";
import { weaviateServerPerFile } from "../testing/weaviate-server-per-file.js";
import { WeaviateVectorStore } from "./weaviate-vector-store.js";

const sharedServer = weaviateServerPerFile();

describeVectorStoreContract("weaviate", async () => {
  const { url, grpcPort } = await sharedServer();
  const store = new WeaviateVectorStore({ url, grpcPort });
  return { store, close: () => store.close() };
});

describe("WeaviateVectorStore hybrid search", () => {
  let store: WeaviateVectorStore;
  const collection = `hybrid_${process.pid}`;

  beforeAll(async () => {
    const { url, grpcPort } = await sharedServer();
    store = new WeaviateVectorStore({ url, grpcPort });
    await store.ensureCollection(collection, 8);
    await store.upsert(collection, [
      // Near the query vector but without the keyword.
      chunk("c1", axisVector(0), { text: "the scheduler starts nodes when ready" }),
      // Far from the query vector but it has the rare keyword.
      chunk("c2", axisVector(5), { text: "retries honour the retry-after header of a rate limit" }),
      chunk("c3", axisVector(6), { text: "nodes are drawn in the editor" }),
    ]);
  }, 120_000);

  afterAll(async () => {
    await store?.dropCollection(collection);
    await store?.close();
  });

  it("ranks by vector alone when alpha is 1", async () => {
    const hits = await store.search(collection, { vector: axisVector(0), text: "rate limit", alpha: 1, topK: 3 });
    expect(hits[0]?.id).toBe("c1");
    expect(hits[0]?.score).toBeCloseTo(1, 3);
  });

  it("keeps answering after the search breadth (ef) is changed", async () => {
    await store.setSearchEf(collection, 256);
    const hits = await store.search(collection, { vector: axisVector(0), topK: 1 });
    expect(hits[0]?.id).toBe("c1");
    await store.setSearchEf(collection, -1);
  });

  it("ranks by keywords alone when alpha is 0", async () => {
    const hits = await store.search(collection, { vector: axisVector(0), text: "rate limit", alpha: 0, topK: 3 });
    expect(hits[0]?.id).toBe("c2");
  });

  it("moves the keyword match up as alpha decreases", async () => {
    const rank = async (alpha: number) =>
      (await store.search(collection, { vector: axisVector(0), text: "rate limit", alpha, topK: 3 })).findIndex((hit) => hit.id === "c2");
    expect(await rank(0.9)).toBeGreaterThan(await rank(0.1));
    const hits = await store.search(collection, { vector: axisVector(0), text: "rate limit", alpha: 0.5, topK: 3 });
    for (const hit of hits) expect(hit.score).toBeGreaterThanOrEqual(0);
    for (const hit of hits) expect(hit.score).toBeLessThanOrEqual(1);
  });
});

describe("WeaviateVectorStore when the server is down", () => {
  it("fails with VECTOR_STORE_UNAVAILABLE naming the URL", async () => {
    const store = new WeaviateVectorStore({ url: "http://127.0.0.1:9", grpcPort: 9 });
    await expect(store.search("anything", { vector: axisVector(0), topK: 1 })).rejects.toMatchObject({
      code: "VECTOR_STORE_UNAVAILABLE",
      message: expect.stringContaining("http://127.0.0.1:9"),
    });
  });
});

describe("WeaviateVectorStore when its server stops after connecting", () => {
  it("fails with VECTOR_STORE_UNAVAILABLE", async () => {
    const own = await startWeaviateServer();
    const store = new WeaviateVectorStore({ url: own.url, grpcPort: own.grpcPort, searchTimeoutMs: 2_000 });
    try {
      await store.ensureCollection("short_lived", 8);
      await store.upsert("short_lived", [chunk("c1", axisVector(0))]);
      await own.stop();
      await expect(store.search("short_lived", { vector: axisVector(0), topK: 1 })).rejects.toMatchObject({ code: "VECTOR_STORE_UNAVAILABLE", message: expect.stringContaining(own.url) });
    } finally {
      await store.close();
      await own.stop();
    }
  }, 120_000);
});
