import { parentPort, workerData } from "node:worker_threads";
import { addAll, createIndex } from "./scope-vector-index.js";
import type { BuildRequest } from "./scope-index-builder.js";

/** Builds a scope's HNSW graph off the API's thread and saves it to the file the builder loads it from. */
const request = workerData as BuildRequest;
const index = createIndex(request.dimension);
addAll(index, request.dimension, request.pages);
index.save(request.file);
parentPort?.postMessage("built");
