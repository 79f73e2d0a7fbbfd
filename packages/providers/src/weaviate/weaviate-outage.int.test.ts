import type { StoredChunk } from "@weft/engine";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { startWeaviateServer, type WeaviateServer } from "../testing/weaviate-server.js";
import { WeaviateVectorStore } from "./weaviate-vector-store.js";

/**
 * Weaviate stopping and coming back under a store that was already connected, as an operator meets it:
 * searches must fail at once and say "unreachable" (not wait for the search deadline), print nothing of
 * their own, and work again as soon as Weaviate does.
 */

const DIMENSION = 8;
const vector = Array.from({ length: DIMENSION }, (_, index) => (index + 1) / DIMENSION);
const chunk: StoredChunk = { id: "c1", text: "weft weaves", vector, source: { documentId: "d1", title: "t", chunkIndex: 0, page: null } };
/** Long enough that "fails at once" and "waits for the deadline" cannot be confused on a loaded machine. */
const SEARCH_TIMEOUT_MS = 20_000;

let server: WeaviateServer;
beforeAll(async () => {
  server = await startWeaviateServer();
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

async function timed<T>(work: Promise<T>): Promise<{ ms: number; error: (Error & { code?: string }) | null }> {
  const started = performance.now();
  try {
    await work;
    return { ms: performance.now() - started, error: null };
  } catch (error) {
    return { ms: performance.now() - started, error: error as Error & { code?: string } };
  }
}

test("a stopped Weaviate fails searches at once as unreachable, quietly, and the first search after it returns succeeds", async () => {
  const store = new WeaviateVectorStore({ url: server.url, grpcPort: server.grpcPort, searchTimeoutMs: SEARCH_TIMEOUT_MS });
  const warn = vi.spyOn(console, "warn");
  try {
    await store.ensureCollection("outage", DIMENSION);
    await store.upsert("outage", [chunk]);
    expect(await store.search("outage", { vector, topK: 1 })).toHaveLength(1);

    await server.interrupt();
    for (const attempt of [1, 2]) {
      const down = await timed(store.search("outage", { vector, topK: 1 }));
      expect([attempt, down.error?.code]).toEqual([attempt, "VECTOR_STORE_UNAVAILABLE"]);
      expect(down.error?.message).toMatch(/unreachable/);
      expect(down.error?.message).not.toMatch(/did not answer/);
      expect(down.ms).toBeLessThan(SEARCH_TIMEOUT_MS / 4);
    }
    await expect(store.ready()).rejects.toThrow(/unreachable/);

    await server.resume();
    expect(await store.search("outage", { vector, topK: 1 })).toHaveLength(1);
    await expect(store.ready()).resolves.toBeUndefined();
    // The client's own retry reports (a stack trace per attempt) stay out of the output.
    expect(warn).not.toHaveBeenCalled();
  } finally {
    warn.mockRestore();
    await store.close();
  }
}, 180_000);

test("a gRPC port that nothing listens on is named in the error, while the REST URL answers", async () => {
  const wrong = new WeaviateVectorStore({ url: server.url, grpcPort: 1 });
  try {
    const failed = await timed(wrong.ensureCollection("elsewhere", DIMENSION));
    expect(failed.error?.code).toBe("VECTOR_STORE_UNAVAILABLE");
    expect(failed.error?.message).toContain(`is unreachable: its gRPC port 127.0.0.1:1 does not accept connections`);
    await expect(wrong.ready()).rejects.toThrow(/gRPC port 127\.0\.0\.1:1 does not accept connections/);
  } finally {
    await wrong.close();
  }
});
