import { statSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { addAll, createIndex } from "./scope-vector-index.js";
import { commitSave } from "./scope-index-files.js";
import type { BuildRequest } from "./scope-index-builder.js";

/**
 * Builds a scope's HNSW graph off the API's thread — from nothing, or from a saved graph with what changed
 * since — and saves it where the builder loads it from (with its manifest, when the scope is kept on disk).
 */
const request = workerData as BuildRequest;
const index = createIndex(request.dimension);
if (request.base) {
  index.load(request.base);
  if (index.dimensions() !== request.dimension) throw new Error(`the saved graph has ${index.dimensions()} dimensions, not ${request.dimension}`);
}
if (request.remove.length > 0) index.remove(BigUint64Array.from(request.remove, BigInt));
addAll(index, request.dimension, request.add.pages, request.add.firstKey, request.threads);
const graph = "target" in request.save ? request.save.target.graph : request.save.graph;
index.save(graph);
if ("target" in request.save) await commitSave(request.save.target, request.save.entries, statSync(graph).size);
parentPort?.postMessage("built");
