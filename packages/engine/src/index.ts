export * from "./model/workflow.js";
export * from "./model/violation.js";
export * from "./model/errors.js";
export * from "./events/run-event.js";
export * from "./providers/llm-provider.js";
export * from "./providers/retrieval.js";
export * from "./registry/node-type-spec.js";
export * from "./registry/node-type-registry.js";
