import { describe, expect, it } from "vitest";
import { CACHE_CONTRACT_DIMENSION, CACHE_CONTRACT_MODEL, describeSemanticCacheContract } from "../testing/semantic-cache.contract.js";
import { axisVector } from "../testing/vector-store.fixtures.js";
import { weaviateServerPerFile } from "../testing/weaviate-server-per-file.js";
import { WeaviateSemanticCache } from "./weaviate-semantic-cache.js";

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

  it("fails with VECTOR_STORE_UNAVAILABLE naming the URL when the server is down", async () => {
    const cache = new WeaviateSemanticCache({ url: "http://127.0.0.1:9", grpcPort: 9, model: "m", dimension: 8 });
    await expect(cache.lookup("ns:x", axisVector(0), 0.9)).rejects.toMatchObject({ code: "VECTOR_STORE_UNAVAILABLE", message: expect.stringContaining("http://127.0.0.1:9") });
  });
});
