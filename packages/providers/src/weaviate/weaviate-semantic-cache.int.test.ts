import weaviate from "weaviate-client";
import { describe, expect, it } from "vitest";
import { CACHE_CONTRACT_DIMENSION, CACHE_CONTRACT_MODEL, describeSemanticCacheContract } from "../testing/semantic-cache.contract.js";
import { axisVector } from "../testing/vector-store.fixtures.js";
import { weaviateServerPerFile } from "../testing/weaviate-server-per-file.js";
import { CACHE_SEARCH_EF, WeaviateSemanticCache } from "./weaviate-semantic-cache.js";
import { describeDimension, weaviateCacheCollectionName } from "./weaviate-schema.mapper.js";

const sharedServer = weaviateServerPerFile();

describeSemanticCacheContract("weaviate", async (clock) => {
  const { url, grpcPort } = await sharedServer();
  const cache = new WeaviateSemanticCache({ url, grpcPort, model: CACHE_CONTRACT_MODEL, dimension: CACHE_CONTRACT_DIMENSION, now: clock });
  return { cache, close: () => cache.close() };
});

describe("WeaviateSemanticCache", () => {
  it("keeps caches of different embedding models in different collections", async () => {
    const { url, grpcPort } = await sharedServer();
    const a = new WeaviateSemanticCache({ url, grpcPort, model: "model-a", dimension: 8 });
    const b = new WeaviateSemanticCache({ url, grpcPort, model: "model-b", dimension: 8 });
    try {
      await a.put("ns:shared", { query: "q", vector: axisVector(0), answer: "from a" });
      expect((await a.lookup("ns:shared", axisVector(0), 0.9))?.entry.answer).toBe("from a");
      expect(await b.lookup("ns:shared", axisVector(0), 0.9)).toBeNull();
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("searches a new collection with its own HNSW breadth, and sets it on a collection an earlier version created", async () => {
    const { url, grpcPort } = await sharedServer();
    const client = await weaviate.connectToCustom({ httpHost: "127.0.0.1", httpPort: Number(new URL(url).port), grpcHost: "127.0.0.1", grpcPort });
    const efOf = async (model: string) => {
      const config = await client.collections.use(weaviateCacheCollectionName(model, 8)).config.get();
      return (config.vectorizers.default?.indexConfig as { ef?: number }).ef;
    };
    // As the cache created its collection before it chose a breadth: Weaviate's dynamic ef (-1).
    await client.collections.create({
      name: weaviateCacheCollectionName("model-earlier", 8),
      description: describeDimension(8).replace("knowledge-base chunks", "semantic cache"),
      properties: [
        { name: "scope", dataType: "text", tokenization: "field", indexSearchable: false },
        { name: "query", dataType: "text", indexFilterable: false, indexSearchable: false },
        { name: "answerJson", dataType: "text", indexFilterable: false, indexSearchable: false },
        { name: "createdAt", dataType: "number", indexRangeFilters: true },
        { name: "expiresAt", dataType: "number", indexRangeFilters: true },
      ],
      vectorizers: weaviate.configure.vectors.selfProvided({ name: "default", vectorIndexConfig: weaviate.configure.vectorIndex.hnsw({ distanceMetric: "cosine" }) }),
    });
    expect(await efOf("model-earlier")).toBe(-1);
    const earlier = new WeaviateSemanticCache({ url, grpcPort, model: "model-earlier", dimension: 8 });
    const fresh = new WeaviateSemanticCache({ url, grpcPort, model: "model-fresh", dimension: 8 });
    try {
      await earlier.put("ns:ef", { query: "q", vector: axisVector(0), answer: "kept" });
      expect((await earlier.lookup("ns:ef", axisVector(0), 0.9))?.entry.answer).toBe("kept");
      expect(await efOf("model-earlier")).toBe(CACHE_SEARCH_EF);
      expect(await fresh.lookup("ns:ef", axisVector(0), 0.9)).toBeNull();
      expect(await efOf("model-fresh")).toBe(CACHE_SEARCH_EF);
    } finally {
      await earlier.close();
      await fresh.close();
      await client.close();
    }
  });

  it("fails with VECTOR_STORE_UNAVAILABLE naming the URL when the server is down", async () => {
    const cache = new WeaviateSemanticCache({ url: "http://127.0.0.1:9", grpcPort: 9, model: "m", dimension: 8 });
    await expect(cache.lookup("ns:x", axisVector(0), 0.9)).rejects.toMatchObject({ code: "VECTOR_STORE_UNAVAILABLE", message: expect.stringContaining("http://127.0.0.1:9") });
  });
});
