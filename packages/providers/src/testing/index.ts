export * from "./chat-completions-mock-server.js";
export { MistralMockServer, mistralErrorBody, type MistralMockServerOptions } from "./mistral-mock-server.js";
export * from "./openai-mock-server.js";
export * from "./weaviate-server.js";
export * from "./vector-store.contract.js";
export * from "./tavily-mock-server.js";
export * from "./semantic-cache.contract.js";
export * from "./vector-store.fixtures.js";
export * from "./weaviate-server-per-file.js";
