export * from "./embedding/local-embedder.js";
export * from "./chunking/chunker.js";
