import { describe, expect, it } from "vitest";
import { LocalEmbedder } from "../embedding/local-embedder.js";
import { EmbeddingSemanticCache } from "./embedding-semantic-cache.js";
import { ExactSemanticCache } from "./exact-semantic-cache.js";

const embedder = new LocalEmbedder();
const signal = () => new AbortController().signal;
const version = (n: number) => ({ kind: "workflow" as const, workflowId: "wf", version: n });

describe("EmbeddingSemanticCache", () => {
  it("hits on the second identical question and misses an unrelated one", async () => {
    const cache = new EmbeddingSemanticCache(embedder, new ExactSemanticCache(embedder.model, embedder.dimension));
    expect(await cache.lookup(version(1), "무등산은 언제 국립공원이 되었나요?", 0.9, signal())).toBeNull();
    await cache.save(version(1), "무등산은 언제 국립공원이 되었나요?", { answer: "2013년" }, 3600, signal());
    const hit = await cache.lookup(version(1), "무등산은 언제 국립공원이 되었나요?", 0.9, signal());
    expect(hit?.entry.answer).toEqual({ answer: "2013년" });
    expect(hit?.similarity).toBeCloseTo(1, 6);
    expect(await cache.lookup(version(1), "How do I rebase a git branch?", 0.9, signal())).toBeNull();
    expect(cache.store).toBe("exact-memory");
  });

  it("keeps workflow versions and namespaces apart", async () => {
    const cache = new EmbeddingSemanticCache(embedder, new ExactSemanticCache(embedder.model, embedder.dimension));
    await cache.save(version(1), "what is hybrid search?", "v1 answer", null, signal());
    expect(await cache.lookup(version(2), "what is hybrid search?", 0.9, signal())).toBeNull();
    expect(await cache.lookup({ kind: "namespace", namespace: "faq" }, "what is hybrid search?", 0.9, signal())).toBeNull();
  });

  it("misses a blank question without embedding it", async () => {
    const cache = new EmbeddingSemanticCache(embedder, new ExactSemanticCache(embedder.model, embedder.dimension));
    expect(await cache.lookup(version(1), "   ", 0, signal())).toBeNull();
  });

  it("refuses a store of another embedding space", () => {
    expect(() => new EmbeddingSemanticCache(embedder, new ExactSemanticCache("mistral-embed", 1024))).toThrow(expect.objectContaining({ code: "EMBEDDING_MODEL_MISMATCH" }));
  });
});
