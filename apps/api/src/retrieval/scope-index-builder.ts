import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { workerEntry } from "../worker-entry.js";
import { createIndex, ScopeVectorIndex, type ScopeVectors } from "./scope-vector-index.js";

/** What the build worker receives. */
export interface BuildRequest {
  dimension: number;
  pages: Float32Array[];
  /** Where the worker saves the graph for this thread to load it. */
  file: string;
}

/**
 * Builds the HNSW graph of a scope's vectors on a worker thread (100,000 entries of 512 dimensions took
 * 91 s of one core in the cache-lookup benchmark), so the API's thread keeps serving meanwhile; the
 * graph comes back through a temporary file, which is removed once it is loaded.
 */
export async function buildScopeIndex(dimension: number, scope: ScopeVectors): Promise<ScopeVectorIndex> {
  const index = createIndex(dimension);
  if (scope.ids.length === 0) return new ScopeVectorIndex(index, []);
  const dir = await mkdtemp(join(tmpdir(), "weft-cache-index-"));
  try {
    const request: BuildRequest = { dimension, pages: scope.pages, file: join(dir, "scope.usearch") };
    const entry = workerEntry("scope-index-build-worker", import.meta.url);
    const worker = new Worker(entry.url, { workerData: request, execArgv: entry.execArgv, transferList: scope.pages.map((page) => page.buffer as ArrayBuffer) });
    // A build does not keep the process alive: it only speeds up lookups, which go to the database meanwhile.
    worker.unref();
    await new Promise<void>((resolve, reject) => {
      worker.once("message", () => resolve());
      worker.once("error", reject);
      worker.once("exit", (code) => reject(new Error(`the cache index build thread exited (code ${code}) before it finished`)));
    });
    index.load(request.file);
    return new ScopeVectorIndex(index, scope.ids);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
