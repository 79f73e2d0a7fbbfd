export * from "./embedding/local-embedder.js";
export * from "./chunking/chunker.js";
export * from "./mistral/mistral-client.js";
export * from "./mistral/mistral-llm-provider.js";
export * from "./mistral/mistral-embedder.js";
export { parseMistralModels, DEFAULT_MISTRAL_MODELS } from "./mistral/mistral-request.mapper.js";
export { parseRetryAfter } from "./mistral/mistral-error.mapper.js";
