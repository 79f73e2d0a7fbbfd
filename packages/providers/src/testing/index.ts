export * from "./mistral-mock-server.js";
