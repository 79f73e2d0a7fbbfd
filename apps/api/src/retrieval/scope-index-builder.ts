import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { workerEntry } from "../worker-entry.js";
import type { SaveTarget } from "./scope-index-files.js";
import { BUILD_THREADS, createIndex, ScopeVectorIndex, type ScopeEntries } from "./scope-vector-index.js";

/** What the build worker receives. */
export interface BuildRequest {
  dimension: number;
  threads: number;
  /** A saved graph to start from, or null to build from nothing. */
  base: string | null;
  /** Keys to take out of the base. */
  remove: number[];
  /** Vectors to add, under keys firstKey, firstKey + 1, … in their order. */
  add: { firstKey: number; pages: Float32Array[] };
  /** Where the worker saves the graph: a temporary file, or the scope's place on disk (with its manifest). */
  save: { graph: string } | { target: SaveTarget; entries: ScopeEntries & { keys: number[] } };
}

/** A scope's graph to make: every entry in it, by key, and how to get there. */
export interface ScopeBuild {
  /** The entries the graph will hold and their keys, as the manifest records them. */
  entries: ScopeEntries & { keys: number[] };
  base: string | null;
  remove: number[];
  add: { firstKey: number; pages: Float32Array[] };
  /** The scope's place on disk, or null to keep the graph in memory only. */
  target: SaveTarget | null;
}

/**
 * Makes a scope's HNSW graph on a worker thread (100,000 entries of 512 dimensions took 91 s of one core
 * in the cache-lookup benchmark; a saved graph with a few changes takes a second or two), so the API's
 * thread keeps serving meanwhile, then loads it here from the file the worker saved: the scope's place on
 * disk, or a temporary file removed once loaded.
 */
export async function buildScopeIndex(dimension: number, build: ScopeBuild): Promise<ScopeVectorIndex> {
  const index = createIndex(dimension);
  if (build.entries.ids.length === 0 && build.base === null) return new ScopeVectorIndex(index, []);
  const scratch = build.target ? null : await mkdtemp(join(tmpdir(), "weft-cache-index-"));
  try {
    const save: BuildRequest["save"] = build.target ? { target: build.target, entries: build.entries } : { graph: join(scratch!, "scope.usearch") };
    const request: BuildRequest = { dimension, threads: BUILD_THREADS, base: build.base, remove: build.remove, add: build.add, save };
    await runWorker(request, build.add.pages);
    index.load("target" in save ? save.target.graph : save.graph);
    if (index.size() !== build.entries.ids.length) throw new Error(`the built graph holds ${index.size()} entries, not ${build.entries.ids.length}`);
    return new ScopeVectorIndex(index, build.entries.ids, build.entries.keys);
  } finally {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  }
}

/** A saved graph as it is, loaded here: nothing changed in the table since it was saved. */
export function loadScopeIndex(dimension: number, graph: string, entries: ScopeEntries & { keys: number[] }): ScopeVectorIndex {
  const index = createIndex(dimension);
  index.load(graph);
  if (index.dimensions() !== dimension || index.size() !== entries.ids.length) {
    throw new Error(`the saved graph holds ${index.size()} entries of ${index.dimensions()} dimensions, its manifest ${entries.ids.length} of ${dimension}`);
  }
  return new ScopeVectorIndex(index, entries.ids, entries.keys);
}

async function runWorker(request: BuildRequest, pages: Float32Array[]): Promise<void> {
  const entry = workerEntry("scope-index-build-worker", import.meta.url);
  const worker = new Worker(entry.url, { workerData: request, execArgv: entry.execArgv, transferList: pages.map((page) => page.buffer as ArrayBuffer) });
  // A build does not keep the process alive: it only speeds up lookups, which go to the database meanwhile.
  worker.unref();
  await new Promise<void>((resolve, reject) => {
    worker.once("message", () => resolve());
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the cache index build thread exited (code ${code}) before it finished`)));
  });
}
